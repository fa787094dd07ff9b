package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.Jdbc.params;

import dev.outboxrelay.core.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What is waiting in the outbox and who holds the leases, for {@link OutboxAdmin}. */
final class Backlog {
  private static final String PENDING = " FROM {outbox} WHERE {published_at} IS NULL";

  private Backlog() {}

  static Optional<Duration> oldestPendingAge(Connection c, StateSql sql) throws SQLException {
    String age = sql.dialect().millisSince(sql.sql("MIN({created_at})"));
    return Jdbc.query(
            c,
            "SELECT " + age + sql.sql(PENDING),
            params(),
            rs -> {
              double millis = rs.getDouble(1);
              return rs.wasNull()
                  ? Optional.<Duration>empty()
                  : Optional.of(Duration.ofMillis(Math.max(0, Math.round(millis))));
            })
        .get(0);
  }

  static long pendingCount(Connection c, StateSql sql) throws SQLException {
    return Jdbc.query(c, sql.sql("SELECT COUNT(*)" + PENDING), params(), rs -> rs.getLong(1))
        .get(0);
  }

  static Map<String, Integer> leaseOwners(Connection c, StateSql sql) throws SQLException {
    Map<String, Integer> owners = new TreeMap<>();
    String leases =
        sql.sql(
            "SELECT owner, COUNT(*) FROM {lease} WHERE owner IS NOT NULL AND expires_at > {now}"
                + " GROUP BY owner");
    Jdbc.query(c, leases, params(), rs -> Map.entry(rs.getString(1), rs.getInt(2)))
        .forEach(e -> owners.put(e.getKey(), e.getValue()));
    return owners;
  }
}
