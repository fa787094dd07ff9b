package dev.outboxrelay.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.RetriablePublishException;
import dev.outboxrelay.core.rows.PendingRow;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A released key is drained from the table in order, in rounds of the batch size, and stays held
 * when an outage stops its drain; the engine's rule applied through an in-memory table.
 */
class KeyDrainsTest {
  private final AtomicLong now = new AtomicLong();
  private final KeyHolds holds = new KeyHolds(new KeyBackoffs(attempt -> 100L, now::get));
  private final KeyDelivery delivery =
      new KeyDelivery(
          "t",
          new RelayListener() {},
          holds.backoffs(),
          (row, reason) -> true,
          KeyDelivery.OnOutage.RETRY_ROUND);
  private final List<PendingRow> table = new ArrayList<>();
  private final List<Long> published = new ArrayList<>();
  private final List<String> calls = new ArrayList<>();
  private boolean brokerDown;

  private final KeyDrains.Table source =
      new KeyDrains.Table() {
        @Override
        public void settle() {
          calls.add("settle");
        }

        @Override
        public List<PendingRow> pendingOfKey(String key, int limit) {
          calls.add("read");
          return table.stream().filter(r -> r.aggregateId().equals(key)).limit(limit).toList();
        }

        @Override
        public KeyDelivery.Applied publish(List<PendingRow> rows) throws SQLException {
          KeyDelivery.Round round = delivery.prepare(rows, k -> false);
          RetriablePublishException down = new RetriablePublishException("down", null);
          List<PublishResult> results =
              round.messages().stream()
                  .map(
                      m ->
                          brokerDown
                              ? PublishResult.failed(m, down)
                              : PublishResult.acknowledged(m))
                  .toList();
          KeyDelivery.Applied applied = delivery.apply(round, results);
          for (OutboxMessage m : applied.acknowledged()) {
            published.add(m.sequence().getAsLong());
            table.removeIf(r -> r.id().equals(m.id()));
          }
          return applied;
        }

        @Override
        public void retrying(KeyDelivery.Applied outage, KeyBackoffs.Attempt attempt) {
          calls.add("retry #" + attempt.number());
        }
      };

  private final KeyDrains drains = new KeyDrains(2, holds, source, () -> true);

  @Test
  void anUnparkedKeyIsDrainedInOrderInRoundsOfTheBatchSize() throws Exception {
    add("a", 1, 2, 3);
    add("b", 4);
    holds.park("a");
    holds.parked(java.util.Set.of()); // the operator unparked it

    assertThat(holds.isHeld("a")).isTrue();
    drains.drainDue();

    assertThat(published).containsExactly(1L, 2L, 3L);
    assertThat(calls).containsExactly("settle", "read", "settle", "read", "settle", "read");
    assertThat(holds.isHeld("a")).as("drained: it flows with the source again").isFalse();
    assertThat(table).extracting(PendingRow::aggregateId).containsExactly("b");
  }

  @Test
  void anOutageStopsTheDrainAndTheKeyStaysHeldUntilItsBackoffIsOver() throws Exception {
    add("a", 1, 2);
    holds.backoffs().failed("a");
    now.addAndGet(1_000_000_000L);
    brokerDown = true;

    drains.drainDue();

    assertThat(published).isEmpty();
    assertThat(calls).containsExactly("settle", "read", "retry #2");
    assertThat(holds.isHeld("a")).isTrue();

    brokerDown = false;
    now.addAndGet(1_000_000_000L);
    drains.drainDue();
    assertThat(published).containsExactly(1L, 2L);
    assertThat(holds.isHeld("a")).isFalse();
  }

  @Test
  void aFlowingRowAtOrBeforeTheDrainedSequenceIsReadAgain() throws Exception {
    add("a", 5, 6);
    holds.park("a");
    holds.parked(java.util.Set.of());
    drains.drainDue();

    assertThat(drains.drainedBefore("a", 6, true)).isTrue();
    assertThat(drains.drainedBefore("b", 1, true)).as("never drained").isFalse();
    assertThat(drains.drainedBefore("a", 7, false)).isFalse();
    assertThat(drains.drainedBefore("a", 6, true))
        .as("without key order a later row proves nothing: the drain is remembered")
        .isTrue();
    assertThat(drains.drainedBefore("a", 7, true)).isFalse();
    assertThat(drains.drainedBefore("a", 6, true))
        .as("a later row in key order: every earlier one went before")
        .isFalse();
  }

  private void add(String key, long... seqs) {
    for (long seq : seqs) {
      OutboxMessage m =
          OutboxMessage.builder()
              .aggregateType("t")
              .aggregateId(key)
              .type("e")
              .payload("{}")
              .sequence(seq)
              .build();
      table.add(new PendingRow(m.id(), key, 0, m, null));
    }
  }
}
