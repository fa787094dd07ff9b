package dev.outboxrelay.daemon;

import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.KafkaTopicReader;

/** {@link ReconcileContract} on Kafka: the topic scan by {@code id} header. */
class ReconcileKafkaIT extends ReconcileContract {
  @Override
  protected String publisher(String topicTemplate) {
    return "{type: kafka, settings: {bootstrap.servers: '"
        + KafkaServer.shared().bootstrapServers()
        + "', topic-template: '"
        + topicTemplate
        + "'}}";
  }

  @Override
  protected void createTopic(String topic) {
    KafkaServer.shared().createTopic(topic, 3);
  }

  @Override
  protected BrokerReader reader() {
    return new KafkaTopicReader(KafkaServer.shared().bootstrapServers());
  }
}
