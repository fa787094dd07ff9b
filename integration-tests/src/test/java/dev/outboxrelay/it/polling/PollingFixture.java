package dev.outboxrelay.it.polling;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.relay.polling.PollingRelayBuilder;
import dev.outboxrelay.testing.DatabaseServer;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A fresh database, topic, Kafka publisher and reader per test, for polling-relay behaviour. */
abstract class PollingFixture {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  final Outbox outbox = Outbox.builder().build();
  final List<AutoCloseable> closeables = new ArrayList<>();
  HikariDataSource dataSource;
  TopicTemplate topics;
  String topic;
  KafkaTopicReader reader;

  abstract DatabaseServer database();

  @BeforeEach
  void setUp() throws SQLException {
    dataSource = database().dataSource(database().createDatabase(), 16);
    try (Connection c = dataSource.getConnection()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
    String prefix = "polling-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    topic = prefix + "order";
    topics = TopicTemplate.of(prefix + TopicTemplate.PLACEHOLDER);
    KAFKA.server().createTopic(topic, 3);
    reader = new KafkaTopicReader(KAFKA.server().bootstrapServers());
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    reader.close();
    dataSource.close();
  }

  Publisher kafka() {
    Publisher p =
        KafkaPublisher.builder()
            .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
            .topicTemplate(topics)
            .build();
    closeables.add(p);
    return p;
  }

  /** A relay builder with test-friendly timings; the caller sets the publisher and starts it. */
  PollingRelayBuilder relay(String name) {
    return PollingRelay.builder()
        .name(name)
        .dataSource(dataSource)
        .leaseDuration(Duration.ofSeconds(2))
        .pollInterval(Duration.ofMillis(100))
        .backoffInitial(Duration.ofMillis(100))
        .backoffMax(Duration.ofSeconds(2));
  }

  PollingRelay started(PollingRelay relay) {
    closeables.add(relay);
    return relay.start();
  }

  List<OutboxMessage> commit(String key, int count) throws SQLException {
    List<OutboxMessage> messages = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      messages.add(
          OutboxMessage.builder()
              .aggregateType("order")
              .aggregateId(key)
              .type("OrderChanged")
              .payload("{\"n\":" + i + "}")
              .build());
    }
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      outbox.saveAll(c, messages);
      c.commit();
    }
    return messages;
  }

  List<ReceivedMessage> received() {
    return reader.readAll(topic);
  }

  List<UUID> receivedIds(String key) {
    return received().stream().filter(r -> r.key().equals(key)).map(ReceivedMessage::id).toList();
  }

  long count(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        var rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  void execute(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  static List<UUID> ids(List<OutboxMessage> messages) {
    return messages.stream().map(OutboxMessage::id).toList();
  }
}
