package dev.outboxrelay.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RetriablePublishException;
import dev.outboxrelay.core.rows.PendingRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The dead-letter copy: headers, and the payload dropped only when the whole copy is refused. */
class DeadLettersTest {
  private static final Instant PARKED_AT = Instant.parse("2026-12-02T10:15:30.123456Z");

  /** Records what goes to which topic; {@code refuse} decides a copy's failure (null: acked). */
  private static final class Recording implements Publisher {
    final List<String> topics = new CopyOnWriteArrayList<>();
    final List<OutboxMessage> sent = new CopyOnWriteArrayList<>();
    final Function<OutboxMessage, PublishException> refuse;

    Recording(Function<OutboxMessage, PublishException> refuse) {
      this.refuse = refuse;
    }

    @Override
    public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
      throw new AssertionError("a dead-letter copy never goes through publish");
    }

    @Override
    public CompletionStage<List<PublishResult>> publishTo(String topic, List<OutboxMessage> b) {
      topics.add(topic);
      sent.addAll(b);
      return CompletableFuture.completedFuture(
          b.stream()
              .map(
                  m ->
                      refuse.apply(m) == null
                          ? PublishResult.acknowledged(m)
                          : PublishResult.failed(m, refuse.apply(m)))
              .toList());
    }

    @Override
    public Optional<String> topicOf(OutboxMessage message) {
      return Optional.of("orders." + message.aggregateType());
    }

    @Override
    public void close() {}
  }

  private static DeadLetters.Due due(int payloadBytes) {
    OutboxMessage m =
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId("order-42")
            .type("OrderPlaced")
            .payload(new byte[payloadBytes])
            .header("tenant", "acme")
            .sequence(7)
            .build();
    return new DeadLetters.Due(
        new PendingRow(m.id(), m.aggregateId(), 3, m, null), "too large", PARKED_AT);
  }

  @Test
  void theCopyIsTheMessageWithTheReasonTheTimeAndTheOriginalTopic() throws Exception {
    Recording broker = new Recording(m -> null);
    DeadLetters.Due due = due(10);
    PublishResult r = DeadLetters.send(broker, "orders-dlq", due, Duration.ofSeconds(1));
    assertThat(r.isAcknowledged()).isTrue();
    assertThat(broker.topics).containsExactly("orders-dlq");
    OutboxMessage copy = broker.sent.get(0);
    assertThat(copy.id()).isEqualTo(due.row().id());
    assertThat(copy.aggregateId()).isEqualTo("order-42");
    assertThat(copy.payloadSize()).isEqualTo(10);
    assertThat(copy.sequence()).hasValue(7);
    assertThat(copy.headers())
        .containsEntry("tenant", "acme")
        .containsEntry(MessageContract.HEADER_PARKED_REASON, "too large")
        .containsEntry(MessageContract.HEADER_PARKED_AT, "2026-12-02T10:15:30.123456Z")
        .containsEntry(MessageContract.HEADER_ORIGINAL_TOPIC, "orders.order")
        .doesNotContainKey(MessageContract.HEADER_PAYLOAD_DROPPED);
  }

  @Test
  void aCopyRefusedForGoodGoesAgainWithoutItsPayload() throws Exception {
    Recording broker =
        new Recording(
            m ->
                m.payloadSize() > 100
                    ? new NonRetriablePublishException("record too large", null)
                    : null);
    PublishResult r = DeadLetters.send(broker, "orders-dlq", due(1000), Duration.ofSeconds(1));
    assertThat(r.isAcknowledged()).isTrue();
    assertThat(broker.sent).hasSize(2);
    OutboxMessage dropped = broker.sent.get(1);
    assertThat(dropped.payloadAsString()).isEqualTo("payload dropped");
    assertThat(dropped.headers())
        .containsEntry(MessageContract.HEADER_PAYLOAD_DROPPED, "1000")
        .containsEntry(MessageContract.HEADER_PARKED_REASON, "too large");
  }

  @Test
  void aRetriableFailureIsReturnedAsItIsWithoutASecondCopy() throws Exception {
    Recording broker = new Recording(m -> new RetriablePublishException("broker down", null));
    PublishResult r = DeadLetters.send(broker, "orders-dlq", due(1000), Duration.ofSeconds(1));
    assertThat(r.failure()).get().extracting(PublishException::isRetriable).isEqualTo(true);
    assertThat(broker.sent).hasSize(1);
  }

  @Test
  void aPublisherWithoutPublishToFailsTheCopyForGood() throws Exception {
    Publisher old =
        new Publisher() {
          @Override
          public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
            throw new AssertionError("not for dead letters");
          }

          @Override
          public void close() {}
        };
    PublishResult r = DeadLetters.send(old, "orders-dlq", due(10), Duration.ofSeconds(1));
    assertThat(r.failure())
        .get()
        .satisfies(f -> assertThat(f.isRetriable()).isFalse())
        .satisfies(f -> assertThat(f.getMessage()).contains("cannot publish to a fixed topic"));
    assertThat(DeadLetters.copy(old, due(10)).headers())
        .doesNotContainKey(MessageContract.HEADER_ORIGINAL_TOPIC);
  }
}
