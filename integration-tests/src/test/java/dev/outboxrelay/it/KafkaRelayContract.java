package dev.outboxrelay.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.testing.Workload;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The relay contract against the shared Kafka broker with KafkaPublisher. */
public abstract class KafkaRelayContract extends OutboxRelayContract {
  @RegisterExtension protected static final KafkaExtension KAFKA = new KafkaExtension();
  private static BrokerReader reader;

  @Override
  protected Publisher newPublisher(TopicTemplate topics) {
    return KafkaPublisher.builder()
        .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
        .producerProperty("max.request.size", MAX_MESSAGE_SIZE)
        .topicTemplate(topics)
        .build();
  }

  /**
   * A relay waits for each batch's acknowledgements as soon as it is sent, so it has the producer
   * send what it would hold back for {@code linger.ms} at once ({@link Publisher#sendBuffered}):
   * with a linger of ten minutes, the messages arrive within seconds only if it does. A relay that
   * did not would make each of its batches wait out the linger (5 ms in the benchmark's producer
   * settings).
   */
  @Test
  void aBatchIsNotHeldBackByTheProducersLinger() throws Exception {
    Relay relay =
        relay(
            "lingering",
            KafkaPublisher.builder()
                .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
                .producerProperty("linger.ms", 600_000)
                .producerProperty("delivery.timeout.ms", 900_000)
                .topicTemplate(topics)
                .build());
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> relay.state().phase() == RelayState.Phase.ACTIVE);
    List<OutboxMessage> messages =
        List.of(Workload.message("a"), Workload.message("b"), Workload.message("a"));
    commit(messages);
    await().atMost(Duration.ofSeconds(20)).until(() -> received().size() >= messages.size());
    assertThat(received())
        .extracting(ReceivedMessage::id)
        .containsExactlyInAnyOrderElementsOf(messages.stream().map(OutboxMessage::id).toList());
  }

  @Override
  protected void createTopic(String topic) {
    KAFKA.server().createTopic(topic, 3);
  }

  @Override
  protected BrokerReader reader() {
    if (reader == null) {
      reader = new KafkaTopicReader(KAFKA.server().bootstrapServers());
    }
    return reader;
  }

  @AfterAll
  static void closeReader() {
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }

  @Override
  protected void stopBroker() {
    KAFKA.server().stop();
  }

  @Override
  protected void startBroker() {
    KAFKA.server().restart();
  }
}
