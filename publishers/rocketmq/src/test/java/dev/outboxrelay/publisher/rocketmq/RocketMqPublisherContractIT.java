package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.PublisherContract;
import dev.outboxrelay.testing.RocketMqExtension;
import dev.outboxrelay.testing.RocketMqTopicReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

class RocketMqPublisherContractIT extends PublisherContract {
  @RegisterExtension static final RocketMqExtension ROCKETMQ = new RocketMqExtension();
  private static BrokerReader reader;

  @Override
  protected Publisher newPublisher(TopicTemplate topics) {
    return RocketMqPublisher.builder()
        .namesrvAddr(ROCKETMQ.server().nameServerAddress())
        .maxMessageSize(100_000)
        .topicTemplate(topics)
        .build();
  }

  @Override
  protected Publisher newPublisherWithDefaults(TopicTemplate topics) {
    return RocketMqPublisher.builder()
        .namesrvAddr(ROCKETMQ.server().nameServerAddress())
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

  @Override
  protected int oversizedPayloadBytes() {
    return 200_000;
  }
}
