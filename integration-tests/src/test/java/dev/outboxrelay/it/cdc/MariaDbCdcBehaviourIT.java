package dev.outboxrelay.it.cdc;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
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
