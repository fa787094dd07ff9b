package dev.outboxrelay.dedup.internal;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.SqlFunction;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Runs work in one local transaction and retries the whole transaction, boundedly, when the
 * database reports a deadlock or serialization failure anywhere in the cause chain.
 */
public final class Transactions {
  /** SQLStates that mean "run the transaction again": serialization failure, deadlock. */
  private static final Set<String> RETRYABLE = Set.of("40001", "40P01");

  private static final int MYSQL_DEADLOCK = 1213;

  private Transactions() {}

  /** Told before each retry. */
  @FunctionalInterface
  public interface RetryListener {
    void onRetry(int attempt, Exception failure);
  }

  /**
   * Runs {@code work} and commits; rolls back on any failure. Retryable failures are retried up to
   * {@code maxAttempts} in all; other {@link RuntimeException}s propagate unchanged; a {@link
   * SQLException} is wrapped once in {@link OutboxDatabaseException}.
   */
  public static <T> T run(
      DataSource dataSource,
      int maxAttempts,
      Backoff backoff,
      RetryListener listener,
      SqlFunction<Connection, T> work) {
    for (int attempt = 1; ; attempt++) {
      try {
        return once(dataSource, work);
      } catch (SQLException | RuntimeException e) {
        if (attempt >= maxAttempts || !isRetryable(e)) {
          throw e instanceof SQLException s
              ? new OutboxDatabaseException(
                  "Transaction failed after " + attempt + " attempt(s)", s)
              : (RuntimeException) e;
        }
        listener.onRetry(attempt, e);
        backoff.sleep(attempt);
      }
    }
  }

  private static <T> T once(DataSource dataSource, SqlFunction<Connection, T> work)
      throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        T result = work.apply(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException | Error e) {
        rollback(c, e);
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    }
  }

  private static void rollback(Connection c, Throwable failure) {
    try {
      c.rollback();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  /** Whether a deadlock or serialization failure is anywhere in the cause chain. */
  public static boolean isRetryable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException s
          && (RETRYABLE.contains(s.getSQLState()) || s.getErrorCode() == MYSQL_DEADLOCK)) {
        return true;
      }
    }
    return false;
  }
}
