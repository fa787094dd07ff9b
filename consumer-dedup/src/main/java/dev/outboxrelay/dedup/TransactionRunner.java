package dev.outboxrelay.dedup;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where a {@link Dedup#transactionalBatch(java.util.function.Function, DedupBatchHandler,
 * TransactionRunner) transactional batch} runs its transactions when they are not the store's own:
 * e.g. the application's transaction manager (the Spring starter's {@code SpringDedup} passes one).
 */
public interface TransactionRunner {
  /**
   * Runs {@code work} in one transaction and commits it; on any failure rolls back (or marks the
   * transaction rollback-only, if it joined one already running) and rethrows.
   *
   * @throws dev.outboxrelay.core.OutboxDatabaseException for a {@link SQLException} of the work
   */
  <T> T inTransaction(Work<T> work);

  /**
   * Runs {@code report} once the last {@link #inTransaction} has committed: at once if it committed
   * already, else when the transaction it joined commits (never if that rolls back). Default: at
   * once.
   */
  default void afterCommit(Runnable report) {
    report.run();
  }

  /** Work on the transaction's connection. */
  @FunctionalInterface
  interface Work<T> {
    /**
     * @param joined whether the transaction was already running before {@link #inTransaction}: then
     *     nothing of the batch can commit on its own, so a failure is not split
     */
    T apply(Connection connection, boolean joined) throws SQLException;
  }
}
