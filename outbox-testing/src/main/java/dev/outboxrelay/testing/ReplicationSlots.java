package dev.outboxrelay.testing;

import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.servers.DatabaseServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The PostgreSQL replication slots a test's CDC relays created in its database, dropped after the
 * test. A slot outlives its relay and its database's use, and the test server allows 40: an
 * integration-test run that left every slot in place would use them all up, and every later CDC
 * test would fail with "all replication slots are in use".
 */
public final class ReplicationSlots {
  private ReplicationSlots() {}

  /**
   * Drops the slots of {@code ds}'s database once their relays have let go of them (a closed or
   * aborted relay's walsender ends within moments), waiting at most 5 s; best effort, a slot still
   * held then stays. Nothing on MySQL/MariaDB.
   */
  public static void dropAll(DatabaseServer server, DataSource ds) {
    if (server.dialect() != SqlDialect.POSTGRESQL) {
      return;
    }
    try {
      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(() -> dropInactive(ds) == 0);
    } catch (ConditionTimeoutException e) {
      // a slot still in use: left as it was before this cleanup existed
    }
  }

  /** Drops the inactive slots of the database; returns how many of its slots remain. */
  private static long dropInactive(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
              + " WHERE database = current_database() AND NOT active");
      try (ResultSet rs =
          st.executeQuery(
              "SELECT count(*) FROM pg_replication_slots WHERE database = current_database()")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
