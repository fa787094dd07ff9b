package dev.outboxrelay.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The seq-keyed layout on MariaDB: what {@code createIfMissing} makes, what it leaves alone, and
 * {@link OutboxSchema#clusterBySeq} on a table made before it.
 */
class MariaDbSchemaIT extends WriterFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @Test
  void aNewTableIsKeyedBySeqWithIdUniqueAndStaysSoWhenCreatedAgain() throws Exception {
    Map<String, String> expected = Map.of("PRIMARY", "seq", "outbox_id", "id");
    assertThat(uniqueIndexes("outbox")).isEqualTo(expected);
    try (Connection c = connect()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
    assertThat(uniqueIndexes("outbox")).isEqualTo(expected);
    OutboxMessage m = message("o-1");
    save(m);
    assertThatThrownBy(() -> save(m))
        .isInstanceOf(OutboxDatabaseException.class)
        .hasStackTraceContaining("Duplicate entry");
  }

  @Test
  void aTableMadeBeforeItIsLeftKeyedByIdUntilClusteredExplicitlyWithItsRows() throws Exception {
    OutboxTable old = OutboxTable.builder().name("events").build();
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      for (String migration : OutboxSchema.migrations(SqlDialect.MARIADB)) { // V1 to V5
        for (String statement : OutboxSchema.render(SqlDialect.MARIADB, old, migration)) {
          st.execute(statement);
        }
      }
    }
    Map<String, String> byId = Map.of("PRIMARY", "id", "seq", "seq");
    assertThat(uniqueIndexes("events")).isEqualTo(byId);
    Outbox writer = Outbox.builder().table(old).build();
    List<OutboxMessage> saved = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      saved.add(message("k-" + i));
      save(writer, saved.get(i));
    }
    List<OutboxMessage> before = rows(old);
    try (Connection c = connect()) {
      OutboxSchema.createIfMissing(c, old); // the table exists: left as it is
    }
    assertThat(uniqueIndexes("events")).isEqualTo(byId);

    try (Connection c = connect()) {
      OutboxSchema.clusterBySeq(c, old);
      OutboxSchema.clusterBySeq(c, old); // once keyed by seq, nothing more
    }
    assertThat(uniqueIndexes("events")).isEqualTo(Map.of("PRIMARY", "seq", "events_id", "id"));
    assertThat(rows(old)).isEqualTo(before);
    assertThat(seqs("events")).hasSize(5);
    save(writer, message("k-after"));
    List<Long> seqs = seqs("events");
    assertThat(seqs.get(5)).isGreaterThan(seqs.get(4)); // the counter carries on
  }

  /**
   * A user who may create tables but not alter them still gets a working outbox, keyed by id (the
   * relays read either key), and a WARN, not a failed {@code createIfMissing}.
   */
  @Test
  void aUserWhoMayNotAlterTablesGetsTheTableKeyedById() throws Exception {
    String user = "creator_" + database.toLowerCase(java.util.Locale.ROOT);
    String account = "'" + user + "'@'%'";
    try (Connection c = connect();
        Statement st = c.createStatement()) {
      st.execute("CREATE USER " + account + " IDENTIFIED BY 'creator'");
      st.execute("GRANT CREATE, SELECT, INSERT ON `" + database + "`.* TO " + account);
    }
    OutboxTable table = OutboxTable.builder().name("created_by_user").build();
    try (Connection c =
        java.sql.DriverManager.getConnection(server().jdbcUrl(database), user, "creator")) {
      OutboxSchema.createIfMissing(c, table);
      assertThatThrownBy(() -> OutboxSchema.clusterBySeq(c, table))
          .isInstanceOf(OutboxDatabaseException.class)
          .hasStackTraceContaining("ALTER command denied");
    } finally {
      try (Connection c = connect();
          Statement st = c.createStatement()) {
        st.execute("DROP USER " + account);
      }
    }
    assertThat(uniqueIndexes("created_by_user")).isEqualTo(Map.of("PRIMARY", "id", "seq", "seq"));
    save(Outbox.builder().table(table).build(), message("k-1"));
    assertThat(rows(table)).hasSize(1);
  }

  private void save(OutboxMessage m) throws SQLException {
    save(outbox, m);
  }

  private void save(Outbox writer, OutboxMessage m) throws SQLException {
    try (Connection c = begin()) {
      writer.save(c, m);
      c.commit();
    }
  }

  /** Unique indexes, name to comma-separated columns. */
  private Map<String, String> uniqueIndexes(String table) throws SQLException {
    Map<String, String> indexes = new TreeMap<>();
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT INDEX_NAME, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX)"
                    + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()"
                    + " AND TABLE_NAME = '"
                    + table
                    + "' AND NON_UNIQUE = 0 GROUP BY INDEX_NAME")) {
      while (rs.next()) {
        indexes.put(rs.getString(1), rs.getString(2));
      }
    }
    return indexes;
  }

  private List<Long> seqs(String table) throws SQLException {
    List<Long> seqs = new ArrayList<>();
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT seq FROM " + table + " ORDER BY seq")) {
      while (rs.next()) {
        seqs.add(rs.getLong(1));
      }
    }
    return seqs;
  }
}
