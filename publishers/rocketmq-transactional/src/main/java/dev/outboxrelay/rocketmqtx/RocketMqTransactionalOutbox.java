package dev.outboxrelay.rocketmqtx;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.RetriablePublishException;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.rocketmq.RocketMqClientContract;
import dev.outboxrelay.writer.Outbox;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saves an outbox message and sends it as a RocketMQ transactional message in one step: the row is
 * saved in a new local transaction, the half message is stored on the broker, the caller's {@link
 * LocalTransaction} runs on the same connection, and the message is committed or rolled back with
 * it. When that answer is lost, the broker asks the producer group back, and any instance answers
 * from the outbox table (see {@code TransactionStatus}). Build with {@link #builder()};
 * thread-safe.
 */
public final class RocketMqTransactionalOutbox implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RocketMqTransactionalOutbox.class);

  private final TransactionMQProducer producer;
  private final DataSource dataSource;
  private final Outbox outbox;
  private final TopicTemplate topics;
  private final TransactionStatus status;
  private final TransactionalOutboxListener listener;

  RocketMqTransactionalOutbox(
      TransactionMQProducer producer,
      DataSource dataSource,
      Outbox outbox,
      TopicTemplate topics,
      TransactionStatus status,
      TransactionalOutboxListener listener) {
    this.producer = producer;
    this.dataSource = dataSource;
    this.outbox = outbox;
    this.topics = topics;
    this.status = status;
    this.listener = listener;
  }

  /** A builder; see {@link RocketMqTransactionalOutboxBuilder} for the settings and defaults. */
  public static RocketMqTransactionalOutboxBuilder builder() {
    return new RocketMqTransactionalOutboxBuilder();
  }

  /**
   * Saves {@code message} and runs {@code work} in one local transaction on a connection of the
   * data source, and sends the message as a RocketMQ transactional message that commits with it.
   * Returns once the transaction committed; the message is then delivered (by the COMMIT answer or
   * the check-back).
   *
   * @throws dev.outboxrelay.core.NonRetriablePublishException before anything is written, if
   *     RocketMQ can never carry the message (topic name, empty payload, reserved header)
   * @throws dev.outboxrelay.core.InvalidMessageException if the writer refuses it (nothing
   *     committed)
   * @throws RetriablePublishException if the half message was not stored (broker down): nothing was
   *     committed
   * @throws OutboxDatabaseException if saving failed (nothing committed), or the commit call failed
   *     (its outcome is unknown; the check-back sends or drops the message accordingly)
   * @throws RuntimeException what {@code work} threw (checked exceptions wrapped in an {@link
   *     OutboxException}): the transaction and the message were rolled back
   */
  public TransactionalSend send(OutboxMessage given, LocalTransaction work) {
    Objects.requireNonNull(given, "message");
    Objects.requireNonNull(work, "work");
    // The half message carries the trace context the row gets: stamped once, before both.
    OutboxMessage message = Outbox.traced(given);
    Message halfMessage = RocketMqClientContract.toMessage(unordered(message), topics);
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      LocalRun run = new LocalRun(c, message, work, listener);
      try {
        return send(c, message, halfMessage, run);
      } finally {
        run.rollback();
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Transactional message " + message.id() + " failed", e);
    }
  }

  private TransactionalSend send(Connection c, OutboxMessage m, Message half, LocalRun run)
      throws SQLException {
    outbox.save(c, m);
    String txid = status.marker(c, outbox.dialect().orElseGet(() -> SqlDialect.of(c)));
    if (txid != null) {
      half.putUserProperty(TransactionStatus.TXID_PROPERTY, txid);
    }
    TransactionSendResult result;
    try {
      result = producer.sendMessageInTransaction(half, run);
    } catch (MQClientException e) {
      throw new RetriablePublishException(
          "Half message of " + m.id() + " was not stored, nothing committed: " + e, e);
    }
    return switch (run.state()) {
      case OPEN ->
          throw new RetriablePublishException(
              "Half message of "
                  + m.id()
                  + " was not stored durably ("
                  + result.getSendStatus()
                  + "), nothing committed",
              null);
      case ROLLED_BACK -> throw rethrow(m, run.failure());
      case IN_DOUBT ->
          throw new OutboxDatabaseException(
              "Commit of message "
                  + m.id()
                  + " failed and its outcome is unknown; the broker's"
                  + " check-back commits or drops the message as the database decided",
              (SQLException) run.failure());
      case COMMITTED -> {
        LOG.debug(
            "{} - Message {} committed, answered {}",
            producer.getProducerGroup(),
            m.id(),
            result.getLocalTransactionState());
        yield new TransactionalSend(m.id(), result.getMsgId(), result.getLocalTransactionState());
      }
    };
  }

  /**
   * A transactional message reaches the broker when its answer does, not in commit order, so it
   * never promises key order to a consumer's high-water mark (the row keeps the writer's marker).
   */
  private static OutboxMessage unordered(OutboxMessage m) {
    return m.headers().containsKey(MessageContract.HEADER_SEQUENCE_ORDER)
        ? m.toBuilder().removeHeader(MessageContract.HEADER_SEQUENCE_ORDER).build()
        : m;
  }

  private static RuntimeException rethrow(OutboxMessage m, Throwable failure) {
    if (failure instanceof RuntimeException r) {
      return r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure instanceof SQLException e) {
      return new OutboxDatabaseException("Local transaction of message " + m.id() + " failed", e);
    }
    return new OutboxException("Local transaction of message " + m.id() + " failed", failure);
  }

  /** Shuts the producer down; check-backs then go to the group's other instances. */
  @Override
  public void close() {
    producer.shutdown();
    LOG.info("{} - RocketMQ transactional outbox closed", producer.getProducerGroup());
  }
}
