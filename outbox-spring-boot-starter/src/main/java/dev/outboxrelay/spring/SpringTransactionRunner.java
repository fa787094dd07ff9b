package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.dedup.TransactionRunner;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * consumer-dedup's batch transactions in the application's transaction manager: the work gets the
 * transaction's connection ({@link DataSourceUtils}), so {@code JdbcTemplate} and JPA writes of the
 * handler join it. A batch inside a transaction already running joins that one.
 */
final class SpringTransactionRunner implements TransactionRunner {
  private final DataSource dataSource;
  private final Supplier<TransactionTemplate> transactions;

  SpringTransactionRunner(DataSource dataSource, Supplier<TransactionTemplate> transactions) {
    this.dataSource = dataSource;
    this.transactions = transactions;
  }

  @Override
  public <T> T inTransaction(Work<T> work) {
    return transactions
        .get()
        .execute(
            status -> {
              Connection connection = DataSourceUtils.getConnection(dataSource);
              try {
                requireTransactional(connection, dataSource);
                return work.apply(connection, !status.isNewTransaction());
              } catch (SQLException e) {
                throw new OutboxDatabaseException("Dedup batch transaction failed", e);
              } finally {
                DataSourceUtils.releaseConnection(connection, dataSource);
              }
            });
  }

  /** When the transaction this batch joined commits, or now if it committed already. */
  @Override
  public void afterCommit(Runnable report) {
    if (!TransactionSynchronizationManager.isSynchronizationActive()) {
      report.run();
      return;
    }
    TransactionSynchronizationManager.registerSynchronization(
        new TransactionSynchronization() {
          @Override
          public void afterCommit() {
            report.run();
          }
        });
  }

  /**
   * Refuses a connection the transaction manager does not manage (e.g. the only manager is a
   * KafkaTransactionManager, or a JPA manager of another DataSource): in auto-commit the ids would
   * commit before the handler ran, and a failing handler would lose its batch.
   */
  static void requireTransactional(Connection connection, DataSource dataSource) {
    if (!DataSourceUtils.isConnectionTransactional(connection, dataSource)) {
      throw new OutboxConfigException(
          "outbox.dedup",
          "needs a transaction manager that manages the dedup DataSource (a"
              + " DataSourceTransactionManager or JpaTransactionManager of it): the transaction"
              + " manager in use does not, so the dedup record and the handler's writes would not"
              + " commit together");
    }
  }
}
