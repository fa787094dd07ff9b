package dev.outboxrelay.rocketmqtx;

import dev.outboxrelay.core.OutboxMessage;
import java.sql.Connection;
import java.sql.SQLException;
import org.apache.rocketmq.client.producer.LocalTransactionState;

/**
 * One send's local transaction, run by the client between the stored half message and the answer
 * ({@code executeLocalTransaction}), on the sending thread. Records how it ended, so that {@link
 * RocketMqTransactionalOutbox#send} can tell the caller, whatever the client made of it.
 */
final class LocalRun {
  enum State {
    /** The row is saved, the work has not run: the half message was not stored. */
    OPEN,
    COMMITTED,
    ROLLED_BACK,
    /** The commit call failed: the database may or may not have committed. */
    IN_DOUBT
  }

  private final Connection connection;
  private final OutboxMessage message;
  private final LocalTransaction work;
  private final TransactionalOutboxListener listener;
  private State state = State.OPEN;
  private Throwable failure;

  LocalRun(
      Connection connection,
      OutboxMessage message,
      LocalTransaction work,
      TransactionalOutboxListener listener) {
    this.connection = connection;
    this.message = message;
    this.work = work;
    this.listener = listener;
  }

  LocalTransactionState execute() {
    try {
      work.execute(connection);
    } catch (Exception | Error e) {
      failure = e;
      rollback();
      listener.onLocalRollback(message, e);
      return LocalTransactionState.ROLLBACK_MESSAGE;
    }
    try {
      connection.commit();
    } catch (SQLException e) {
      // The commit may have reached the database: only the check-back can tell.
      failure = e;
      state = State.IN_DOUBT;
      return LocalTransactionState.UNKNOW;
    }
    state = State.COMMITTED;
    listener.onLocalCommit(message);
    return LocalTransactionState.COMMIT_MESSAGE;
  }

  /** Rolls back a transaction that has not ended (the work never ran, or the client failed). */
  void rollback() {
    if (state != State.OPEN) {
      return;
    }
    state = State.ROLLED_BACK;
    try {
      connection.rollback();
    } catch (SQLException e) {
      // A connection that cannot roll back is broken: the database aborts the transaction.
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
  }

  State state() {
    return state;
  }

  Throwable failure() {
    return failure;
  }
}
