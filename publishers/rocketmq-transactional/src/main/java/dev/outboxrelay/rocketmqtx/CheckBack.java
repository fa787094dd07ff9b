package dev.outboxrelay.rocketmqtx;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's {@link TransactionListener}: runs a send's {@link LocalRun} (passed as the
 * argument), and answers check-backs with {@link TransactionStatus} on a connection of the data
 * source. Thread-safe.
 */
final class CheckBack implements TransactionListener {
  private static final Logger LOG = LoggerFactory.getLogger(RocketMqTransactionalOutbox.class);

  private final String group;
  private final DataSource dataSource;
  private final Optional<SqlDialect> dialect;
  private final TransactionStatus status;
  private final TransactionalOutboxListener listener;

  CheckBack(
      String group,
      DataSource dataSource,
      Optional<SqlDialect> dialect,
      TransactionStatus status,
      TransactionalOutboxListener listener) {
    this.group = group;
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.status = status;
    this.listener = listener;
  }

  @Override
  public LocalTransactionState executeLocalTransaction(Message message, Object run) {
    return ((LocalRun) run).execute();
  }

  @Override
  public LocalTransactionState checkLocalTransaction(MessageExt message) {
    UUID id;
    try {
      id = UUID.fromString(message.getUserProperty(MessageContract.HEADER_ID));
    } catch (RuntimeException e) {
      LOG.warn(
          "{} - Check-back of broker message {} without an outbox id: UNKNOW",
          group,
          message.getMsgId());
      return LocalTransactionState.UNKNOW;
    }
    LocalTransactionState answer = answer(message, id);
    LOG.debug("{} - Check-back of message {} answered {}", group, id, answer);
    listener.onCheck(id, answer);
    return answer;
  }

  private LocalTransactionState answer(MessageExt message, UUID id) {
    try (Connection c = dataSource.getConnection()) {
      SqlDialect d = dialect.isPresent() ? dialect.get() : SqlDialect.of(c);
      return status.answer(c, d, id, message.getUserProperty(TransactionStatus.TXID_PROPERTY));
    } catch (SQLException e) {
      if (stillLocked(e)) {
        LOG.debug("{} - Check-back of message {}: its transaction is running", group, id);
      } else {
        LOG.warn(
            "{} - Check-back of message {} failed, answered UNKNOW: {}", group, id, e.toString());
      }
      return LocalTransactionState.UNKNOW;
    } catch (RuntimeException e) {
      LOG.warn(
          "{} - Check-back of message {} failed, answered UNKNOW: {}", group, id, e.toString());
      return LocalTransactionState.UNKNOW;
    }
  }

  /** MariaDB's NOWAIT answers lock wait timeout (1205), MySQL 8's ER_LOCK_NOWAIT (3572). */
  private static boolean stillLocked(SQLException e) {
    return e.getErrorCode() == 1205 || e.getErrorCode() == 3572;
  }
}
