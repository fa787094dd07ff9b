package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.dedup.TransactionRunner;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
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
                return work.apply(connection, !status.isNewTransaction());
              } catch (SQLException e) {
                throw new OutboxDatabaseException("Dedup batch transaction failed", e);
              } finally {
                DataSourceUtils.releaseConnection(connection, dataSource);
              }
            });
  }
}
