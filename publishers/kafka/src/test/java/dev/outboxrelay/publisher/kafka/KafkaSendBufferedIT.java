package dev.outboxrelay.publisher.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.testing.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code sendBuffered()} sends what the producer holds back for {@code linger.ms}: with a linger of
 * ten minutes, a batch is acknowledged within seconds only if it was called.
 */
class KafkaSendBufferedIT {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  private KafkaPublisher lingering(String topic) {
    KAFKA.server().createTopic(topic, 1);
    return KafkaPublisher.builder()
        .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
        .producerProperty("linger.ms", 600_000)
        .producerProperty("delivery.timeout.ms", 900_000)
        .topicTemplate(TopicTemplate.of(topic))
        .build();
  }

  private static List<OutboxMessage> messages(int n) {
    return IntStream.range(0, n)
        .mapToObj(
            i ->
                OutboxMessage.builder()
                    .aggregateType("order")
                    .aggregateId("k" + i % 3)
                    .type("OrderPlaced")
                    .payload(("m" + i).getBytes(StandardCharsets.UTF_8))
                    .build())
        .toList();
  }

  @Test
  void aBatchGoesOutAtOnceWhenItsCallerWaits() throws Exception {
    try (KafkaPublisher publisher = lingering("send-buffered-" + UUID.randomUUID())) {
      CompletableFuture<List<PublishResult>> held =
          publisher.publish(messages(5)).toCompletableFuture();
      // Held back by linger.ms for a whole second, so the test can tell.
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(3))
          .until(() -> !held.isDone());

      publisher.sendBuffered();
      List<PublishResult> results = held.get(30, TimeUnit.SECONDS);
      assertThat(results).hasSize(5).allMatch(PublishResult::isAcknowledged);

      // A second batch after the flush ended: one more call sends it too.
      CompletableFuture<List<PublishResult>> next =
          publisher.publish(messages(3)).toCompletableFuture();
      publisher.sendBuffered();
      assertThat(next.get(30, TimeUnit.SECONDS)).allMatch(PublishResult::isAcknowledged);
    }
  }

  @Test
  void aPublisherClosedWhileFlushingEndsItsFlusherThread() throws Exception {
    KafkaPublisher publisher = lingering("send-buffered-close-" + UUID.randomUUID());
    CompletableFuture<List<PublishResult>> held =
        publisher.publish(messages(2)).toCompletableFuture();
    publisher.sendBuffered();
    publisher.close();
    assertThat(held.get(30, TimeUnit.SECONDS)).hasSize(2);
    publisher.sendBuffered(); // after close: nothing to send, no new thread
    await("outbox-kafka-flush thread ended after close")
        .atMost(Duration.ofSeconds(10))
        .until(() -> !flusherAlive());
  }

  private static boolean flusherAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("outbox-kafka-flush") && t.isAlive());
  }
}
