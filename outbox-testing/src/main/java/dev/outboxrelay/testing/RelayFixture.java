package dev.outboxrelay.testing;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.servers.DatabaseServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What a relay × database × broker combination provides to {@link RelayContract}: a subclass is a
 * few lines. Each test gets a fresh database with the outbox table and its own topic.
 */
public abstract class RelayFixture {
  protected abstract DatabaseServer database();

  protected abstract void createOutbox(Connection c) throws SQLException;

  /** The writer under test: saves inside the caller's transaction. */
  protected abstract void save(Connection c, List<OutboxMessage> messages) throws SQLException;

  protected abstract Publisher newPublisher(TopicTemplate topics);

  protected abstract void createTopic(String topic);

  protected abstract BrokerReader reader();

  /**
   * Builds and starts a relay; the fixture closes it after the test, and a test crashes it with
   * {@link Relay#abort()}.
   */
  protected abstract Relay startRelay(String name, DataSource ds, Publisher publisher);

  /** A payload size the broker never accepts (the writer must still take it). */
  protected abstract int oversizedPayloadBytes();

  protected abstract List<String> parkedKeys(DataSource ds);

  /** The operator's fix for a parked key: drop its parked message and let the key flow. */
  protected abstract void discardParked(DataSource ds, String key);

  /** The ids of the messages an operator discarded, as recorded, oldest decision first. */
  protected abstract List<java.util.UUID> discardedMessages(DataSource ds);

  protected abstract void stopBroker();

  protected abstract void startBroker();

  /** The outbox table under test. Default: {@link OutboxTable#defaults()}. */
  protected OutboxTable table() {
    return OutboxTable.defaults();
  }

  protected HikariDataSource dataSource;
  protected String topic;
  protected TopicTemplate topics;
  private final List<Publisher> publishers = new ArrayList<>();
  private final List<Relay> relays = new ArrayList<>();

  @BeforeEach
  void freshDatabaseAndTopic() throws SQLException {
    dataSource = database().dataSource(database().createDatabase(), 24);
    try (Connection c = dataSource.getConnection()) {
      createOutbox(c);
    }
    String prefix = "relay-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    topic = prefix + "order";
    topics = TopicTemplate.of(prefix + TopicTemplate.PLACEHOLDER);
    createTopic(topic);
  }

  @AfterEach
  void stopAll() {
    relays.forEach(Relay::close);
    publishers.forEach(Publisher::close);
    ReplicationSlots.dropAll(database(), dataSource);
    dataSource.close();
  }

  /** Starts a relay with its own publisher, as a separate process would have. */
  protected Relay relay(String name, Publisher publisher) {
    publishers.add(publisher);
    Relay r = startRelay(name, dataSource, publisher);
    relays.add(r);
    return r;
  }

  protected Relay relay(String name) {
    return relay(name, newPublisher(topics));
  }

  protected void commit(List<OutboxMessage> messages) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      save(c, messages);
      c.commit();
    }
  }

  protected int rowsOfKey(String key) throws SQLException {
    SqlDialect d = database().dialect();
    String sql =
        "SELECT COUNT(*) FROM "
            + table().qualifiedName(d)
            + " WHERE "
            + table().quoted(d, OutboxColumn.AGGREGATE_ID)
            + " = ? AND "
            + d.quote("published_at")
            + " IS NULL";
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  protected List<ReceivedMessage> received() {
    return reader().readAll(topic);
  }
}
