package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxBuffer;
import java.sql.Connection;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The messages {@link SpringOutbox} saved in one Spring transaction, written in one batch when it
 * commits ({@link #beforeCommit}, after every other synchronization's, on the transaction's own
 * connection). Bound to the transaction as a resource under its {@code SpringOutbox}, so a
 * suspended transaction ({@code REQUIRES_NEW}) keeps its own; a rolled-back savepoint ({@code
 * NESTED}) forgets what was saved after it; a rollback writes nothing. A save after the flush (from
 * a later {@code beforeCommit}) is written at once.
 */
final class LateWrite implements TransactionSynchronization {
  private final Object key;
  private final DataSource dataSource;
  private final OutboxBuffer buffer;
  private final Map<Object, Integer> savepoints = new IdentityHashMap<>();
  private boolean flushed;

  private LateWrite(Object key, DataSource dataSource, OutboxBuffer buffer) {
    this.key = key;
    this.dataSource = dataSource;
    this.buffer = buffer;
  }

  /**
   * Keeps the messages for the current transaction's commit; false if they must be written now
   * (this transaction's late write has already run).
   */
  static boolean keep(
      Object key, DataSource dataSource, Outbox writer, Collection<OutboxMessage> messages) {
    LateWrite late = (LateWrite) TransactionSynchronizationManager.getResource(key);
    if (late == null) {
      late = new LateWrite(key, dataSource, writer.buffer());
      TransactionSynchronizationManager.bindResource(key, late);
      TransactionSynchronizationManager.registerSynchronization(late);
    }
    if (late.flushed) {
      return false;
    }
    late.buffer.saveAll(messages);
    return true;
  }

  @Override
  public void beforeCommit(boolean readOnly) {
    flushed = true;
    Connection connection = DataSourceUtils.getConnection(dataSource);
    try {
      buffer.flush(connection);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
  }

  @Override
  public void savepoint(Object savepoint) {
    savepoints.put(savepoint, buffer.size());
  }

  @Override
  public void savepointRollback(Object savepoint) {
    Integer size = savepoints.get(savepoint);
    if (size != null) {
      buffer.truncate(size);
    }
  }

  @Override
  public void suspend() {
    TransactionSynchronizationManager.unbindResource(key);
  }

  @Override
  public void resume() {
    TransactionSynchronizationManager.bindResource(key, this);
  }

  @Override
  public void afterCompletion(int status) {
    TransactionSynchronizationManager.unbindResourceIfPossible(key);
  }
}
