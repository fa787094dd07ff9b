package dev.outboxrelay.publisher.kafka;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.PublisherContract;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

class KafkaPublisherContractIT extends PublisherContract {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  private static BrokerReader reader;

  @Override
  protected Publisher newPublisher(TopicTemplate topics) {
    return KafkaPublisher.builder()
        .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
        .producerProperty("max.request.size", 100_000)
        .topicTemplate(topics)
        .build();
  }

  @Override
  protected Publisher newPublisherWithDefaults(TopicTemplate topics) {
    return KafkaPublisher.builder()
        .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
        .topicTemplate(topics)
        .build();
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
    }
  }

  @Override
  protected int oversizedPayloadBytes() {
    return 200_000;
  }
}
