package dev.outboxrelay.daemon;

import dev.outboxrelay.servers.RocketMqServer;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.RocketMqTopicReader;

/** {@link ReconcileContract} on RocketMQ: the broker's message index, queried by key (the id). */
class ReconcileRocketMqIT extends ReconcileContract {
  @Override
  protected String publisher(String topicTemplate) {
    return "{type: rocketmq, settings: {namesrvAddr: '"
        + RocketMqServer.shared().nameServerAddress()
        + "', producerGroup: reconcile_it, topic-template: '"
        + topicTemplate
        + "'}}";
  }

  @Override
  protected void createTopic(String topic) {
    RocketMqServer.shared().createTopic(topic, 4);
  }

  @Override
  protected BrokerReader reader() {
    return new RocketMqTopicReader(RocketMqServer.shared().nameServerAddress());
  }
}
