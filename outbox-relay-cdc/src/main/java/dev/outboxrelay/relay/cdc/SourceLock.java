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
 *
 * <p>A graceful {@link #close} releases the lock with a statement before it closes the connection:
 * closing alone ends the session only when the server has processed the disconnection, which on
 * PostgreSQL may be after {@code close()} returned, and a relay started again at once under the
 * same name then found the lock still held and stood by (seen in CI as a start that did not fail).
 */
final class SourceLock implements AutoCloseable {
  private final Connection connection;
  private final SqlDialect dialect;
  private final String key;

  private SourceLock(Connection connection, SqlDialect dialect, String key) {
    this.connection = connection;
    this.dialect = dialect;
    this.key = key;
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
    String key = "outbox-cdc:" + name;
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next() && rs.getBoolean(1)) {
          return new SourceLock(c, dialect, key);
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

  /** Releases the lock (answered by the server before this returns), then the connection. */
  @Override
  public void close() {
    String sql =
        dialect == SqlDialect.POSTGRESQL
            ? "SELECT pg_advisory_unlock(hashtext(?))"
            : "SELECT RELEASE_LOCK(?)";
    try {
      // After a lost lock connection (the relay stops itself) the server may not answer at all.
      connection.setNetworkTimeout(Runnable::run, 2_000);
    } catch (SQLException e) {
      // no network timeout with this driver, or the connection is closed (the statement fails)
    }
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      ps.setString(1, key);
      ps.executeQuery().close();
    } catch (SQLException e) {
      // the connection is gone, and the session's lock with it (or soon, as after a crash)
    }
    try {
      connection.close(); // ends the session, which releases a session-level lock
    } catch (SQLException e) {
      // already gone
    }
  }
}
