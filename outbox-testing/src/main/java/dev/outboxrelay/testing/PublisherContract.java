package dev.outboxrelay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Publisher} must show against its real broker. A publisher's test subclasses it
 * in a few lines: how to make a publisher, create a topic and read one back.
 */
public abstract class PublisherContract {
  protected static final String AGGREGATE = "order";
  private Publisher publisher;
  protected String topic;
  private TopicTemplate topics;

  /** A publisher on the running broker, sending to topics from the template. */
  protected abstract Publisher newPublisher(TopicTemplate topics);

  /**
   * A publisher with nothing set but the broker's address, so every limit is the default, as the
   * publisher's README documents it.
   */
  protected abstract Publisher newPublisherWithDefaults(TopicTemplate topics);

  /** Creates a topic with several partitions or queues. */
  protected abstract void createTopic(String topic);

  /** Reads topics back with a real consumer. */
  protected abstract BrokerReader reader();

  /** A payload size this publisher's broker never accepts. */
  protected abstract int oversizedPayloadBytes();

  @BeforeEach
  void newTopic() {
    String prefix = "contract-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    topic = prefix + AGGREGATE;
    createTopic(topic);
    topics = TopicTemplate.of(prefix + TopicTemplate.PLACEHOLDER);
    publisher = newPublisher(topics);
  }

  @AfterEach
  void closePublisher() {
    publisher.close();
  }

  protected static OutboxMessage message(String key, int n) {
    return OutboxMessage.builder()
        .aggregateType(AGGREGATE)
        .aggregateId(key)
        .type("Changed")
        .payload("{\"key\":\"" + key + "\",\"n\":" + n + "}")
        .build();
  }

  protected List<PublishResult> publish(List<OutboxMessage> batch) throws Exception {
    return publisher
        .publish(batch)
        .toCompletableFuture()
        .get(60, java.util.concurrent.TimeUnit.SECONDS);
  }

  @Test
  void acknowledgesEachMessageInInputOrderInTheContractFormat() throws Exception {
    byte[] binary = new byte[256];
    new java.util.Random(7).nextBytes(binary);
    OutboxMessage rich =
        message("k1", 0).toBuilder()
            .payload(binary)
            .header("tenant", "acme")
            .sequence(42)
            .traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .build();
    List<OutboxMessage> batch = new ArrayList<>(List.of(rich));
    IntStream.range(1, 20).forEach(i -> batch.add(message("k" + (i % 4), i)));
    List<PublishResult> results = publish(batch);
    assertThat(results).extracting(r -> r.message().id()).containsExactlyElementsOf(ids(batch));
    assertThat(results).allMatch(PublishResult::isAcknowledged);

    Map<UUID, ReceivedMessage> received = awaitAll(batch.size());
    ReceivedMessage r = received.get(rich.id());
    assertThat(r.topic()).isEqualTo(topic);
    assertThat(r.key()).isEqualTo("k1");
    assertThat(r.payload()).isEqualTo(binary);
    assertThat(r.headers())
        .containsEntry("id", rich.id().toString())
        .containsEntry("type", "Changed")
        .containsEntry("aggregatetype", AGGREGATE)
        .containsEntry("tenant", "acme")
        .containsEntry("seq", "42")
        .containsEntry("traceparent", rich.traceparent().orElseThrow());
    assertThat(received.get(batch.get(1).id()).headers()).doesNotContainKey("traceparent");
  }

  @Test
  void keepsTheOrderOfEachKey() throws Exception {
    List<OutboxMessage> sent = new ArrayList<>();
    for (int round = 0; round < 5; round++) {
      List<OutboxMessage> batch =
          IntStream.range(0, 100)
              .mapToObj(i -> message("key-" + (i % 10), sent.size() + i))
              .toList();
      assertThat(publish(batch)).allMatch(PublishResult::isAcknowledged);
      sent.addAll(batch);
    }
    awaitAll(sent.size());
    Map<String, List<UUID>> receivedByKey =
        reader().readAll(topic).stream()
            .collect(
                Collectors.groupingBy(
                    ReceivedMessage::key,
                    Collectors.mapping(ReceivedMessage::id, Collectors.toList())));
    Map<String, List<UUID>> sentByKey =
        sent.stream()
            .collect(
                Collectors.groupingBy(
                    OutboxMessage::aggregateId,
                    Collectors.mapping(OutboxMessage::id, Collectors.toList())));
    assertThat(receivedByKey).isEqualTo(sentByKey);
  }

  @Test
  void oversizedMessageFailsForGoodAndHoldsOnlyItsKey() throws Exception {
    OutboxMessage big =
        message("poison", 1).toBuilder().payload(new byte[oversizedPayloadBytes()]).build();
    OutboxMessage after = message("poison", 2);
    List<OutboxMessage> batch = List.of(message("a", 0), big, after, message("b", 3));
    List<PublishResult> results = publish(batch);
    assertThat(results.get(0).isAcknowledged()).isTrue();
    assertThat(results.get(1).failure()).get().isInstanceOf(NonRetriablePublishException.class);
    assertThat(results.get(2).isAcknowledged()).as("a later message of the failed key").isFalse();
    assertThat(results.get(3).isAcknowledged()).isTrue();
    assertThat(awaitAll(2)).containsOnlyKeys(batch.get(0).id(), batch.get(3).id());
  }

  /**
   * The writer's default limits fit this publisher's and its broker's defaults: the largest message
   * the writer accepts ({@link LargestMessage}) is acknowledged and arrives byte for byte.
   */
  @Test
  void theLargestMessageTheWriterAcceptsArrivesWithDefaultSettings() throws Exception {
    OutboxMessage largest = LargestMessage.asWritten(AGGREGATE);
    List<PublishResult> results;
    try (Publisher defaults = newPublisherWithDefaults(topics)) {
      results = defaults.publish(List.of(largest)).toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    assertThat(results.get(0).failure()).isEmpty();
    assertThat(results.get(0).isAcknowledged()).isTrue();
    ReceivedMessage r = awaitAll(1).get(largest.id());
    assertThat(r.key()).isEqualTo(largest.aggregateId());
    assertThat(r.payload()).isEqualTo(largest.payload());
    assertThat(r.headers())
        .containsAllEntriesOf(largest.headers())
        .containsEntry("type", largest.type())
        .containsEntry("seq", Long.toString(Long.MAX_VALUE))
        .containsEntry("traceparent", largest.traceparent().orElseThrow());
  }

  /** Waits until the topic holds exactly {@code n} messages and returns them by id. */
  protected Map<UUID, ReceivedMessage> awaitAll(int n) {
    List<ReceivedMessage> seen = new ArrayList<>();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              seen.clear();
              seen.addAll(reader().readAll(topic));
              return seen.size() >= n;
            });
    assertThat(seen).hasSize(n);
    return seen.stream().collect(Collectors.toMap(ReceivedMessage::id, m -> m));
  }

  private static List<UUID> ids(List<OutboxMessage> messages) {
    return messages.stream().map(OutboxMessage::id).toList();
  }
}
