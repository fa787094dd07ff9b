package dev.outboxrelay.it.cdc;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.relay.polling.OutboxAdmin;
import dev.outboxrelay.relay.polling.ParkedKey;
import dev.outboxrelay.relay.polling.Retention;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.RelayContract;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The relay contract for CdcRelay + KafkaPublisher; a subclass per database. */
abstract class CdcKafkaRelayContract extends RelayContract {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  static final int MAX_REQUEST_SIZE = 256 * 1024;
  private static BrokerReader reader;
  private final Outbox outbox = Outbox.builder().maxPayloadBytes(4 * MAX_REQUEST_SIZE).build();

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
    return KafkaPublisher.builder()
        .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
        .producerProperty("max.request.size", MAX_REQUEST_SIZE)
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

  @Override
  protected RelayHandle startRelay(String name, DataSource ds, Publisher publisher) {
    return CdcRelays.start(ds, publisher);
  }

  @Override
  protected int oversizedPayloadBytes() {
    return 2 * MAX_REQUEST_SIZE;
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
    KAFKA.server().stop();
  }

  @Override
  protected void startBroker() {
    KAFKA.server().restart();
  }
}
