package dev.outboxrelay.daemon;

import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Which database session holds a CDC relay's source lock, i.e. which instance streams: the CDC
 * relay takes a session-level advisory lock named {@code outbox-cdc:<relay name>} (PostgreSQL
 * {@code pg_try_advisory_lock(hashtext(name))}, MySQL/MariaDB {@code GET_LOCK(name)}). Read from
 * the database so that {@code status} and readiness show the truth, not what a process believes.
 */
final class CdcOwner {
  private static final String PG =
      "SELECT a.pid, host(a.client_addr), a.backend_start FROM pg_locks l"
          + " JOIN pg_stat_activity a ON a.pid = l.pid"
          + " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
          + " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
          + " AND l.objid::text::bigint = (hashtext(?)::bigint & 4294967295)"
          + " AND l.classid::text::bigint = ((hashtext(?)::bigint >> 32) & 4294967295)";

  private CdcOwner() {}

  /** The session streaming this relay's source, e.g. {@code session 4242 from 10.0.0.7}. */
  static Optional<String> find(DataSource pool, String relayName) throws SQLException {
    String lock = "outbox-cdc:" + relayName;
    try (Connection c = pool.getConnection()) {
      return SqlDialect.of(c) == SqlDialect.POSTGRESQL ? postgres(c, lock) : mysql(c, lock);
    }
  }

  private static Optional<String> postgres(Connection c, String lock) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(PG)) {
      ps.setString(1, lock);
      ps.setString(2, lock);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? Optional.of(
                "session "
                    + rs.getInt(1)
                    + " from "
                    + host(rs.getString(2))
                    + " since "
                    + rs.getTimestamp(3).toInstant())
            : Optional.empty();
      }
    }
  }

  private static Optional<String> mysql(Connection c, String lock) throws SQLException {
    long id;
    try (PreparedStatement ps = c.prepareStatement("SELECT IS_USED_LOCK(?)")) {
      ps.setString(1, lock);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        id = rs.getLong(1);
        if (rs.wasNull()) {
          return Optional.empty();
        }
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement("SELECT HOST FROM information_schema.PROCESSLIST WHERE ID = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return Optional.of("session " + id + " from " + host(rs.next() ? rs.getString(1) : null));
      }
    }
  }

  private static String host(String h) {
    return h == null ? "local socket" : h;
  }
}
