package dev.outboxrelay.rocketmqtx;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.RocketMqServer;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.testing.RocketMqTopicReader;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One test's world: a fresh database with the outbox table and an {@code orders} table, its own
 * topic and producer group on a private broker whose check-back runs every second for half messages
 * older than a second (the defaults, 30 s and 6 s, would make the tests slow).
 */
final class TransactionalOutboxFixture implements AutoCloseable {
  private static final AtomicInteger N = new AtomicInteger();
  private static RocketMqServer broker;

  final HikariDataSource dataSource;
  final String topic;
  final String group;
  final RocketMqTopicReader reader;
  private final List<AutoCloseable> open = new ArrayList<>();

  static synchronized RocketMqServer broker() {
    if (broker == null) {
      broker =
          RocketMqServer.builder()
              .brokerProperty("transactionCheckInterval", "1000")
              .brokerProperty("transactionTimeOut", "1000")
              .start();
    }
    return broker;
  }

  TransactionalOutboxFixture(DatabaseServer database) throws SQLException {
    dataSource = database.dataSource(database.createDatabase(), 8);
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      st.execute("CREATE TABLE orders (id varchar(64) PRIMARY KEY)");
    }
    int n = N.incrementAndGet();
    topic = "rmqtx-" + ProcessHandle.current().pid() + "-" + n;
    group = "rmqtx-group-" + ProcessHandle.current().pid() + "-" + n;
    broker().createTopic(topic, 4);
    reader = new RocketMqTopicReader(broker().nameServerAddress());
  }

  /** A producer of this test's group, named {@code instance}. */
  RocketMqTransactionalOutbox outbox(String instance, TransactionalOutboxListener listener) {
    RocketMqTransactionalOutbox outbox =
        RocketMqTransactionalOutbox.builder()
            .namesrvAddr(broker().nameServerAddress())
            .producerGroup(group)
            .dataSource(dataSource)
            .topicTemplate(TopicTemplate.of(topic))
            .producerProperty("instanceName", instance + "-" + group)
            .listener(listener)
            .build();
    open.add(outbox);
    return outbox;
  }

  static OutboxMessage order(String orderId) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(orderId)
        .type("OrderPlaced")
        .payload("{\"order\":\"" + orderId + "\"}")
        .header("tenant", "t-1")
        .build();
  }

  static void insertOrder(Connection c, String orderId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (id) VALUES (?)")) {
      ps.setString(1, orderId);
      ps.executeUpdate();
    }
  }

  List<ReceivedMessage> received() {
    return reader.readAll(topic);
  }

  long copiesOf(UUID id) {
    return received().stream().filter(m -> m.id().equals(id)).count();
  }

  String text(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  int count(String sql) throws SQLException {
    return Integer.parseInt(text(sql));
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    reader.close();
    dataSource.close();
  }
}
