package dev.outboxrelay.dedup;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.servers.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh database per test with the dedup tables and a business table {@code effects} that
 * handlers write in their transaction; a duplicate effect shows up as a second row.
 */
abstract class DbFixture {
  HikariDataSource dataSource;
  DedupStore store;

  abstract DatabaseServer server();

  @BeforeEach
  void createDatabase() throws SQLException {
    dataSource = server().dataSource(server().createDatabase(), 24);
    store = DedupStore.builder().dataSource(dataSource).purgeBatchSize(10).build();
    store.createIfMissing();
    store.createIfMissing(); // idempotent
    execute("CREATE TABLE effects (message_id varchar(64) NOT NULL, note varchar(64))");
  }

  @AfterEach
  void closeDatabase() {
    dataSource.close();
  }

  Dedup dedup(String group) {
    return Dedup.builder().store(store).group(group).build();
  }

  /** A handler that records one effect row for the message id. */
  static DedupHandler<MessageIdentity> effect() {
    return (c, m) -> insertEffect(c, m.id());
  }

  static void insertEffect(Connection c, String id) throws SQLException {
    try (var ps = c.prepareStatement("INSERT INTO effects (message_id) VALUES (?)")) {
      ps.setString(1, id);
      ps.executeUpdate();
    }
  }

  long effects() throws SQLException {
    return count("SELECT COUNT(*) FROM effects");
  }

  long effects(String id) throws SQLException {
    return count("SELECT COUNT(*) FROM effects WHERE message_id = '" + id + "'");
  }

  long distinctEffects() throws SQLException {
    return count("SELECT COUNT(DISTINCT message_id) FROM effects");
  }

  long count(String sql) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
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

  static String newId() {
    return UUID.randomUUID().toString();
  }
}
