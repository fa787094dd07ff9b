package dev.outboxrelay.it.polling.rocketmq;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.rocketmq.RocketMqPublisher;
import dev.outboxrelay.relay.polling.OutboxAdmin;
import dev.outboxrelay.relay.polling.ParkedKey;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.relay.polling.Retention;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.RelayContract;
import dev.outboxrelay.testing.RocketMqServer;
import dev.outboxrelay.testing.RocketMqTopicReader;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The relay contract with RocketMqPublisher (the polling relay unless a subclass starts another
 * relay); a subclass per database. The outage test stops and restarts the servers, so they are
 * private to these classes (started once per JVM, and stopped by the launcher's shutdown hook), not
 * the shared ones.
 */
public abstract class RocketMqRelayContract extends RelayContract {
  static final int MAX_MESSAGE_SIZE = 256 * 1024;
  private static RocketMqServer server;
  private static BrokerReader reader;
  private final Outbox outbox = Outbox.builder().maxPayloadBytes(4 * MAX_MESSAGE_SIZE).build();

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
  protected void createOutbox(Connection c) {
    OutboxSchema.createIfMissing(c, OutboxTable.defaults());
  }

  @Override
  protected void save(Connection c, List<OutboxMessage> messages) {
    outbox.saveAll(c, messages);
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
  protected RelayHandle startRelay(String name, DataSource ds, Publisher publisher) {
    PollingRelay relay =
        PollingRelay.builder()
            .name(name)
            .dataSource(ds)
            .publisher(publisher)
            .batchSize(200)
            .leaseDuration(Duration.ofSeconds(3))
            .pollInterval(Duration.ofMillis(100))
            .backoffInitial(Duration.ofMillis(200))
            .backoffMax(Duration.ofSeconds(5))
            .build()
            .start();
    return new RelayHandle() {
      @Override
      public void stop() {
        relay.close();
      }

      @Override
      public void crash() {
        relay.abort();
      }
    };
  }

  @Override
  protected int oversizedPayloadBytes() {
    return 2 * MAX_MESSAGE_SIZE;
  }

  @Override
  protected List<String> parkedKeys(DataSource ds) {
    return OutboxAdmin.of(ds, OutboxTable.defaults()).parked().stream()
        .map(ParkedKey::aggregateId)
        .toList();
  }

  @Override
  protected void discardParked(DataSource ds, String key) {
    OutboxAdmin.of(ds, OutboxTable.defaults()).discardParked(key, Retention.deleteImmediately());
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
