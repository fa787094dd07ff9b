package dev.outboxrelay.it.cdc;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbCdcOpenTransactionIT extends OpenTransactionBehaviour {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  String lockWaits() throws Exception {
    List<String> waiting = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT trx_query FROM information_schema.INNODB_TRX"
                    + " WHERE trx_state = 'LOCK WAIT'")) {
      while (rs.next()) {
        String q = rs.getString(1);
        waiting.add(q == null ? "?" : q.substring(0, Math.min(160, q.length())));
      }
    }
    return waiting.toString();
  }
}
