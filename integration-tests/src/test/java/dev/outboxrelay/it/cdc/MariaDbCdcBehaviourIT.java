package dev.outboxrelay.it.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.it.ErrorLog;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbCdcBehaviourIT extends CdcBehaviour {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  void grantStoreWrites(String user) throws Exception {
    execute("GRANT SELECT, INSERT, DELETE ON outbox_cdc_offsets TO " + account(user));
    execute("GRANT INSERT ON outbox_cdc_published TO " + account(user));
    execute("GRANT SELECT, INSERT ON outbox_cdc_history TO " + account(user));
  }

  @Override
  String grantee(String user) {
    return account(user);
  }

  @Override
  void revokeCreate(String user) throws Exception {
    try (var c = dataSource.getConnection()) {
      execute("REVOKE CREATE ON `" + c.getCatalog() + "`.* FROM " + account(user));
    }
  }

  /**
   * MariaDB Connector/J logs every error reply at WARN: on a database without the relay's tables,
   * the relay's start looks for them without a failing statement.
   */
  @org.junit.jupiter.api.Test
  void aFirstStartMakesTheDriverLogNoErrorReply() throws Exception {
    List<String> replies;
    try (ErrorLog log = ErrorLog.capture()) {
      started(relay());
      replies = log.containing("ErrorPacket");
    }
    assertThat(replies).as("error replies the driver logged during the start").isEmpty();
  }

  private static String account(String user) {
    return "'" + user + "'@'%'";
  }

  /**
   * The rights Debezium's MariaDB connector documents, and CREATE in the database (the relay
   * creates the stores' tables as the source user), but no write on any table.
   */
  @org.junit.jupiter.api.Test
  void aSourceUserMustWriteWhatTheStoresWrite() throws Exception {
    String user = "reader_" + dataSource.getPoolName().toLowerCase(java.util.Locale.ROOT);
    String database;
    try (var c = dataSource.getConnection()) {
      database = c.getCatalog();
    }
    execute("CREATE USER " + account(user) + " IDENTIFIED BY 'reader'");
    execute(
        "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO "
            + account(user));
    execute("GRANT CREATE ON `" + database + "`.* TO " + account(user));
    aSourceUserMustWriteWhatTheStoresWrite(user, "reader");
  }

  /**
   * A reader stuck without failing is reported, not read as streaming. Debezium 3.5's JDBC schema
   * history runs a refused insert again forever on the reader's thread (debezium/dbz#2244); here a
   * DDL on the outbox while the source user may not write the history. The engine neither fails nor
   * hands over anything, heartbeats included: the relay reads FAILED once the silence passes its
   * limit (15 heartbeat periods, 15 s with the 1 s keep-alive set here), and ACTIVE again once the
   * grant is back, the insert goes through and the stream goes on. Before EngineSilence it read
   * ACTIVE throughout.
   */
  @org.junit.jupiter.api.Test
  void aReaderStuckWithoutFailingIsReportedUntilItGoesOn() throws Exception {
    String user = "stuck_" + dataSource.getPoolName().toLowerCase(java.util.Locale.ROOT);
    execute("CREATE USER " + account(user) + " IDENTIFIED BY 'reader'");
    execute(
        "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR ON *.* TO "
            + account(user));
    started(relay()).close(); // the stores' tables, made by the owner
    grantStoreWrites(user);
    dev.outboxrelay.relay.cdc.CdcRelay relay =
        started(
            relay()
                .source(dataSource.getJdbcUrl(), user, "reader")
                .debeziumProperties(java.util.Map.of("connect.keep.alive.interval.ms", "1000")));
    commit("before", 1);
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(60))
        .until(() -> receivedIds("before").size() == 1);
    execute("REVOKE INSERT ON outbox_cdc_history FROM " + account(user));
    execute("ALTER TABLE outbox ADD COLUMN note varchar(10) NULL");
    commit("behind-the-ddl", 1);
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(60))
        .until(() -> relay.state().phase() == dev.outboxrelay.core.RelayState.Phase.FAILED);
    org.assertj.core.api.Assertions.assertThat(relay.state().reason())
        .contains("the engine has handed over nothing, heartbeats included");
    org.assertj.core.api.Assertions.assertThat(receivedIds("behind-the-ddl")).isEmpty();
    execute("GRANT INSERT ON outbox_cdc_history TO " + account(user));
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(60))
        .until(() -> receivedIds("behind-the-ddl").size() == 1);
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(30))
        .until(() -> relay.state().phase() == dev.outboxrelay.core.RelayState.Phase.ACTIVE);
  }

  /**
   * Rotates the binlog and purges every file before the new one, as an operator's cleanup would.
   */
  @Override
  void losePosition(String relayName) throws Exception {
    execute("FLUSH BINARY LOGS");
    String current = currentBinlog();
    // The server keeps a file a replica connection still reads; retry until the old ones are gone.
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(30))
        .until(
            () -> {
              execute("PURGE BINARY LOGS TO '" + current + "'");
              return count("SELECT 1") == 1 && binlogCount() == 1;
            });
  }

  private int binlogCount() throws java.sql.SQLException {
    int n = 0;
    try (var c = dataSource.getConnection();
        var st = c.createStatement();
        var rs = st.executeQuery("SHOW BINARY LOGS")) {
      while (rs.next()) {
        n++;
      }
    }
    return n;
  }

  private String currentBinlog() throws java.sql.SQLException {
    try (var c = dataSource.getConnection();
        var st = c.createStatement();
        var rs = st.executeQuery("SHOW MASTER STATUS")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
