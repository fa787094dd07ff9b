package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxBuffer;
import java.sql.Connection;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The {@link Outbox} bean: {@link #save(OutboxMessage)} writes into the current Spring-managed
 * transaction (a {@code @Transactional} method or a {@code TransactionTemplate} with a {@code
 * DataSourceTransactionManager}, {@code JdbcTransactionManager} or {@code JpaTransactionManager}),
 * so the message commits or rolls back with the business data; by default its row is written when
 * that transaction commits ({@link LateWrite}). Thread-safe.
 */
public final class SpringOutbox implements Outbox {
  private final Outbox writer;
  private final DataSource dataSource;
  private final boolean requireTransaction;
  private final boolean writeAtCommit;

  SpringOutbox(
      Outbox writer, DataSource dataSource, boolean requireTransaction, boolean writeAtCommit) {
    this.writer = writer;
    this.dataSource = dataSource;
    this.requireTransaction = requireTransaction;
    this.writeAtCommit = writeAtCommit;
  }

  /**
   * A {@code SpringOutbox} for an application that wires it without Spring Boot's
   * auto-configuration: as the auto-configured one with its defaults, it refuses a save outside a
   * Spring-managed transaction and writes a transaction's messages when it commits.
   */
  public static SpringOutbox of(Outbox writer, DataSource dataSource) {
    return new SpringOutbox(
        java.util.Objects.requireNonNull(writer, "writer"),
        java.util.Objects.requireNonNull(dataSource, "dataSource"),
        true,
        true);
  }

  /**
   * Saves one message in the current transaction on the application's DataSource. With {@code
   * outbox.writer.write-at-commit} (the default) the row is written when the transaction commits,
   * with every message it saved, in one batch that takes the key locks; until then the transaction
   * cannot read it back. Without it, or outside a transaction, the row is inserted now.
   *
   * @throws OutboxException if no transaction is active (unless {@code
   *     outbox.writer.require-transaction=false}, then the row commits on its own) or the active
   *     transaction is not bound to this DataSource
   * @throws dev.outboxrelay.core.InvalidMessageException before any SQL, for an invalid message
   * @throws dev.outboxrelay.core.OutboxDatabaseException if the insert fails; the transaction is
   *     then marked for rollback by the exception leaving the transactional method. Written at
   *     commit, the exception comes from the commit, and Spring rolls the transaction back.
   */
  public void save(OutboxMessage message) {
    saveAll(List.of(message));
  }

  /** Saves the messages, in order, in the current transaction; see {@link #save}. */
  public void saveAll(Collection<OutboxMessage> messages) {
    boolean inTransaction = TransactionSynchronizationManager.isActualTransactionActive();
    if (inTransaction && TransactionSynchronizationManager.getResource(dataSource) == null) {
      throw new OutboxException(
          "Outbox.save: the current transaction does not hold a connection of the outbox"
              + " DataSource (is the transaction manager bound to another DataSource?)");
    }
    if (!inTransaction && requireTransaction) {
      throw new OutboxException(
          "Outbox.save must run inside a Spring-managed transaction (@Transactional or"
              + " TransactionTemplate) so the message commits with the business data; set"
              + " outbox.writer.require-transaction=false to allow saving on its own");
    }
    if (inTransaction
        && writeAtCommit
        && TransactionSynchronizationManager.isSynchronizationActive()
        && LateWrite.keep(this, dataSource, writer, messages)) {
      return;
    }
    Connection connection = DataSourceUtils.getConnection(dataSource);
    try {
      writer.saveAll(connection, messages);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
  }

  /** Inserts on a connection the caller manages; see {@link Outbox#saveAll}. */
  @Override
  public void saveAll(Connection connection, Collection<OutboxMessage> messages) {
    writer.saveAll(connection, messages);
  }

  @Override
  public OutboxBuffer buffer() {
    return writer.buffer();
  }

  @Override
  public OutboxTable table() {
    return writer.table();
  }

  @Override
  public Optional<SqlDialect> dialect() {
    return writer.dialect();
  }
}
