package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Makes sure only one relay reads a source: a session-level advisory lock (PostgreSQL {@code
 * pg_try_advisory_lock}, MySQL/MariaDB {@code GET_LOCK}) held on a dedicated connection for the
 * relay's lifetime. A crashed relay's connection closes and the lock frees itself.
 */
final class SourceLock implements AutoCloseable {
  private final Connection connection;

  private SourceLock(Connection connection) {
    this.connection = connection;
  }

  /** The lock, or {@code null} if another relay holds it. Uses its own, unpooled connection. */
  static SourceLock tryAcquire(
      String url, String user, String password, SqlDialect dialect, String name)
      throws SQLException {
    Connection c = DriverManager.getConnection(url, user, password);
    c.setAutoCommit(true);
    String sql =
        dialect == SqlDialect.POSTGRESQL
            ? "SELECT pg_try_advisory_lock(hashtext(?))"
            : "SELECT GET_LOCK(?, 0)";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, "outbox-cdc:" + name);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next() && rs.getBoolean(1)) {
          return new SourceLock(c);
        }
      }
    }
    c.close();
    return null;
  }

  /** Whether the lock's connection is still alive (if not, the lock is gone too). */
  boolean held() {
    try {
      return connection.isValid(2);
    } catch (SQLException e) {
      return false;
    }
  }

  /** Drops the connection abruptly, as a killed process would. */
  void abort() {
    try {
      connection.abort(Runnable::run);
    } catch (SQLException e) {
      close();
    }
  }

  @Override
  public void close() {
    try {
      connection.close(); // ends the session, which releases a session-level lock
    } catch (SQLException e) {
      // already gone
    }
  }
}
