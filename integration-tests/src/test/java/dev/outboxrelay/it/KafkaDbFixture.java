package dev.outboxrelay.it;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A fresh database with the outbox table, a topic, Kafka publishers and a reader per test. */
public abstract class KafkaDbFixture {
  @RegisterExtension protected static final KafkaExtension KAFKA = new KafkaExtension();

  protected final Outbox outbox = Outbox.builder().build();
  protected final List<AutoCloseable> closeables = new ArrayList<>();
  protected HikariDataSource dataSource;
  protected TopicTemplate topics;
  protected String topic;
  protected KafkaTopicReader reader;

  protected abstract DatabaseServer database();

  @BeforeEach
  protected void setUp() throws SQLException {
    dataSource = database().dataSource(database().createDatabase(), 16);
    try (Connection c = dataSource.getConnection()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
    String prefix = "it-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    topic = prefix + "order";
    topics = TopicTemplate.of(prefix + TopicTemplate.PLACEHOLDER);
    KAFKA.server().createTopic(topic, 3);
    reader = new KafkaTopicReader(KAFKA.server().bootstrapServers());
  }

  @AfterEach
  protected void tearDown() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    reader.close();
    dev.outboxrelay.testing.ReplicationSlots.dropAll(database(), dataSource);
    dataSource.close();
  }

  protected Publisher kafka() {
    Publisher p =
        KafkaPublisher.builder()
            .producerProperty("bootstrap.servers", KAFKA.server().bootstrapServers())
            .topicTemplate(topics)
            .build();
    closeables.add(p);
    return p;
  }

  protected List<OutboxMessage> commit(String key, int count) throws SQLException {
    return commit(dataSource, outbox, key, count);
  }

  /**
   * Commits {@code count} {@code OrderChanged} messages of one key in one transaction; returns them
   * in order.
   */
  public static List<OutboxMessage> commit(
      javax.sql.DataSource dataSource, Outbox outbox, String key, int count) throws SQLException {
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

  protected List<ReceivedMessage> received() {
    return reader.readAll(topic);
  }

  protected List<UUID> receivedIds(String key) {
    return received().stream().filter(r -> r.key().equals(key)).map(ReceivedMessage::id).toList();
  }

  protected long count(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        var rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  protected void execute(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  protected static List<UUID> ids(List<OutboxMessage> messages) {
    return messages.stream().map(OutboxMessage::id).toList();
  }
}
