package dev.outboxrelay.it.deadletter;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The dead-letter topic on MariaDB with KafkaPublisher. */
class MariaDbKafkaDeadLetterIT extends DeadLetterContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  private static BrokerReader reader;

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected Publisher newPublisher(TopicTemplate topics) {
    return KafkaPublisher.builder()
        .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
        .producerProperty("max.request.size", MAX_MESSAGE_SIZE)
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
      reader = null;
    }
  }
}
