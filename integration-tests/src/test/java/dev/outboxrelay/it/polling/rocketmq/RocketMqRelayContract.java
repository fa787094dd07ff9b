package dev.outboxrelay.it.polling.rocketmq;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.it.OutboxRelayContract;
import dev.outboxrelay.publisher.rocketmq.RocketMqPublisher;
import dev.outboxrelay.servers.RocketMqServer;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.RocketMqTopicReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The relay contract with RocketMqPublisher (the polling relay unless a subclass starts another
 * relay); a subclass per database. The outage test stops and restarts the servers, so they are
 * private to these classes (started once per JVM, and stopped by the launcher's shutdown hook), not
 * the shared ones.
 */
public abstract class RocketMqRelayContract extends OutboxRelayContract {
  private static RocketMqServer server;
  private static BrokerReader reader;

  @BeforeAll
  static synchronized void startRocketMq() {
    if (server == null) {
      server = RocketMqServer.start();
    }
  }

  @AfterAll
  static void closeReader() {
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }

  @Override
  protected Publisher newPublisher(TopicTemplate topics) {
    return RocketMqPublisher.builder()
        .namesrvAddr(server.nameServerAddress())
        .maxMessageSize(MAX_MESSAGE_SIZE)
        .topicTemplate(topics)
        .build();
  }

  @Override
  protected void createTopic(String topic) {
    server.createTopic(topic, 4);
  }

  @Override
  protected BrokerReader reader() {
    if (reader == null) {
      reader = new RocketMqTopicReader(server.nameServerAddress());
    }
    return reader;
  }

  @Override
  protected void stopBroker() {
    server.stop();
  }

  @Override
  protected void startBroker() {
    server.restart();
  }
}
