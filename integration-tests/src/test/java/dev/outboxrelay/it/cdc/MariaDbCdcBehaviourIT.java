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
