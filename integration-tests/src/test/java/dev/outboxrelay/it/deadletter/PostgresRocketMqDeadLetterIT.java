package dev.outboxrelay.it.deadletter;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.rocketmq.RocketMqPublisher;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.RocketMqExtension;
import dev.outboxrelay.testing.RocketMqTopicReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The dead-letter topic on PostgreSQL with RocketMqPublisher. */
class PostgresRocketMqDeadLetterIT extends DeadLetterContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final RocketMqExtension ROCKETMQ = new RocketMqExtension();
  private static BrokerReader reader;

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected Publisher newPublisher(TopicTemplate topics) {
    return RocketMqPublisher.builder()
        .namesrvAddr(ROCKETMQ.server().nameServerAddress())
        .maxMessageSize(MAX_MESSAGE_SIZE)
        .topicTemplate(topics)
        .build();
  }

  @Override
  protected void createTopic(String topic) {
    ROCKETMQ.server().createTopic(topic, 4);
  }

  @Override
  protected BrokerReader reader() {
    if (reader == null) {
      reader = new RocketMqTopicReader(ROCKETMQ.server().nameServerAddress());
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
