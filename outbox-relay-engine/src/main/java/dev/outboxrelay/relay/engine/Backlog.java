package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.OutboxColumn.CREATED_AT;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What is waiting in the outbox and who holds the leases, for {@link OutboxAdmin}. */
final class Backlog {
  private Backlog() {}

  static Optional<Duration> oldestPendingAge(Connection c, StateSql sql) throws SQLException {
    String age = sql.dialect().millisSince("MIN(" + sql.col(CREATED_AT) + ")");
    try (PreparedStatement ps =
            c.prepareStatement("SELECT " + age + " FROM " + sql.outbox() + pending(sql));
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      double millis = rs.getDouble(1);
      return rs.wasNull()
          ? Optional.empty()
          : Optional.of(Duration.ofMillis(Math.max(0, Math.round(millis))));
    }
  }

  static long pendingCount(Connection c, StateSql sql) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement("SELECT COUNT(*) FROM " + sql.outbox() + pending(sql));
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static Map<String, Integer> leaseOwners(Connection c, StateSql sql) throws SQLException {
    Map<String, Integer> owners = new TreeMap<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT owner, COUNT(*) FROM "
                    + sql.lease()
                    + " WHERE owner IS NOT NULL AND expires_at > "
                    + sql.dialect().now()
                    + " GROUP BY owner");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        owners.put(rs.getString(1), rs.getInt(2));
      }
    }
    return owners;
  }

  private static String pending(StateSql sql) {
    return " WHERE " + sql.published() + " IS NULL";
  }
}
