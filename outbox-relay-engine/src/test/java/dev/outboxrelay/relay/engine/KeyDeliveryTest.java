package dev.outboxrelay.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.RetriablePublishException;
import dev.outboxrelay.core.rows.PendingRow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The per-key rule of both relays, applied to rounds of rows and the broker's results. */
class KeyDeliveryTest {
  private final AtomicLong now = new AtomicLong();
  private final KeyBackoffs backoffs = new KeyBackoffs(attempt -> 100L, now::get);
  private final List<String> parked = new ArrayList<>();
  private final List<String> retried = new ArrayList<>();
  private final RelayListener listener =
      new RelayListener() {
        @Override
        public void onRetry(
            OutboxMessage message, PublishException failure, int attempt, Duration delay) {
          retried.add(message.aggregateId() + "#" + attempt);
        }
      };

  private KeyDelivery delivery(KeyDelivery.OnOutage onOutage) {
    return new KeyDelivery(
        "t",
        listener,
        backoffs,
        (row, reason) -> parked.add(row.aggregateId() + ": " + reason),
        onOutage);
  }

  @Test
  void aKeyStopsAtItsFirstFailureAndOtherKeysGoOn() throws Exception {
    List<PendingRow> rows = List.of(row("a"), row("a"), row("b"), row("c"), row("c"));
    KeyDelivery d = delivery(KeyDelivery.OnOutage.BACK_OFF_KEYS);
    KeyDelivery.Round round = d.prepare(rows, key -> false);
    assertThat(round.messages()).hasSize(5);

    KeyDelivery.Applied applied =
        d.apply(
            round,
            results(
                round,
                Map.of(
                    rows.get(1).id(), retriable(),
                    rows.get(3).id(), refused())));

    assertThat(applied.outcome()).isEqualTo(PublishOutcome.PROGRESS);
    assertThat(applied.acknowledgedRows()).containsExactly(rows.get(0), rows.get(2));
    assertThat(applied.stopped()).containsExactlyInAnyOrder("a", "c");
    assertThat(parked).containsExactly("c: refused");
    assertThat(retried).containsExactly("a#1");
    assertThat(backoffs.contains("a")).isTrue();
    assertThat(backoffs.contains("c")).as("a parked key does not back off").isFalse();
  }

  @Test
  void aMalformedRowParksItsKeyBeforeAnythingIsSent() throws Exception {
    PendingRow bad = new PendingRow(java.util.UUID.randomUUID(), "a", 0, null, "no payload");
    KeyDelivery.Round round =
        delivery(KeyDelivery.OnOutage.BACK_OFF_KEYS)
            .prepare(List.of(bad, row("a"), row("b")), k -> false);
    assertThat(round.messages()).extracting(OutboxMessage::aggregateId).containsExactly("b");
    assertThat(round.stopped()).containsExactly("a");
    assertThat(parked).containsExactly("a: no payload");
  }

  @Test
  void heldKeysAreLeftOut() throws Exception {
    KeyDelivery.Round round =
        delivery(KeyDelivery.OnOutage.RETRY_ROUND)
            .prepare(List.of(row("a"), row("b")), Set.of("a")::contains);
    assertThat(round.messages()).extracting(OutboxMessage::aggregateId).containsExactly("b");
  }

  @Test
  void anOutageBacksOffEveryKeyOrLeavesThemForTheRoundsRetry() throws Exception {
    List<PendingRow> rows = List.of(row("a"), row("b"));
    KeyDelivery keys = delivery(KeyDelivery.OnOutage.BACK_OFF_KEYS);
    KeyDelivery.Round round = keys.prepare(rows, k -> false);
    KeyDelivery.Applied applied = keys.apply(round, allFailed(round));
    assertThat(applied.outcome()).isEqualTo(PublishOutcome.OUTAGE);
    assertThat(backoffs.size()).isEqualTo(2);
    assertThat(retried).containsExactlyInAnyOrder("a#1", "b#1");

    backoffs.clear();
    retried.clear();
    KeyDelivery whole = delivery(KeyDelivery.OnOutage.RETRY_ROUND);
    KeyDelivery.Round again = whole.prepare(rows, k -> false);
    applied = whole.apply(again, allFailed(again));
    assertThat(applied.outcome()).isEqualTo(PublishOutcome.OUTAGE);
    assertThat(backoffs.size()).as("no key held: the round is retried").isZero();
    assertThat(retried).isEmpty();
    whole.retrying(applied.outage(), 3, Duration.ofSeconds(1));
    assertThat(retried).containsExactlyInAnyOrder("a#3", "b#3");
  }

  @Test
  void anAcknowledgementClearsItsKeysBackoff() throws Exception {
    backoffs.failed("a");
    KeyDelivery d = delivery(KeyDelivery.OnOutage.BACK_OFF_KEYS);
    KeyDelivery.Round round = d.prepare(List.of(row("a")), k -> false);
    d.apply(round, results(round, Map.of()));
    assertThat(backoffs.contains("a")).isFalse();
  }

  private static PendingRow row(String key) {
    OutboxMessage m =
        OutboxMessage.builder().aggregateType("t").aggregateId(key).type("e").payload("{}").build();
    return new PendingRow(m.id(), key, 0, m, null);
  }

  private static List<PublishResult> results(
      KeyDelivery.Round round, Map<java.util.UUID, PublishException> failures) {
    return round.messages().stream()
        .map(
            m ->
                failures.containsKey(m.id())
                    ? PublishResult.failed(m, failures.get(m.id()))
                    : PublishResult.acknowledged(m))
        .toList();
  }

  private static List<PublishResult> allFailed(KeyDelivery.Round round) {
    Function<OutboxMessage, PublishResult> fail = m -> PublishResult.failed(m, retriable());
    return round.messages().stream().map(fail).toList();
  }

  private static PublishException retriable() {
    return new RetriablePublishException("timeout", null);
  }

  private static PublishException refused() {
    return new NonRetriablePublishException("refused", null);
  }
}
