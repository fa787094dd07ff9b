package dev.outboxrelay.benchmarks;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The databases' durability settings: durable by default (every commit flushed to disk, as in
 * production), or outbox-testing's fast test settings with {@code --fast-db}. Applied through
 * outbox-testing's option properties before the servers start, then read back from them.
 */
final class DbSettings {
  static final String PG_DURABLE = "-c fsync=on -c synchronous_commit=on -c full_page_writes=on";
  static final String MARIA_DURABLE = "--innodb-flush-log-at-trx-commit=1 --sync-binlog=1";

  private DbSettings() {}

  /** Sets the server options; call before the first server starts. Returns what was asked for. */
  static String apply(boolean fast) {
    if (fast) {
      return "fast (--fast-db): outbox-testing's test settings, PostgreSQL fsync=off,"
          + " full_page_writes=off; MariaDB innodb_flush_log_at_trx_commit=2, sync_binlog default";
    }
    System.setProperty(PostgresServer.OPTIONS_PROPERTY, PG_DURABLE);
    System.setProperty(MariaDbServer.OPTIONS_PROPERTY, MARIA_DURABLE);
    return "durable: PostgreSQL " + PG_DURABLE + "; MariaDB " + MARIA_DURABLE;
  }

  /** The settings as the running servers report them. */
  static String readBack(DatabaseServer postgres, DatabaseServer mariadb) {
    List<String> out = new ArrayList<>();
    for (String name : List.of("fsync", "synchronous_commit", "full_page_writes")) {
      out.add("PostgreSQL " + name + "=" + query(postgres, "SHOW " + name));
    }
    for (String name : List.of("innodb_flush_log_at_trx_commit", "sync_binlog")) {
      out.add("MariaDB " + name + "=" + query(mariadb, "SELECT @@GLOBAL." + name));
    }
    return String.join(", ", out);
  }

  private static String query(DatabaseServer server, String sql) {
    try (Connection c = server.connect(server.adminDatabase());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : "?";
    } catch (SQLException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }
}
