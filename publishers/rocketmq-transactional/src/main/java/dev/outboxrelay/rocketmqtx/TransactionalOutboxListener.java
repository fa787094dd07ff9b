package dev.outboxrelay.rocketmqtx;

import dev.outboxrelay.core.OutboxMessage;
import java.util.UUID;
import org.apache.rocketmq.client.producer.LocalTransactionState;

/**
 * Events of a {@link RocketMqTransactionalOutbox}, for metrics and logs. Methods are called on the
 * sending thread ({@link #onLocalCommit}) or the client's check thread ({@link #onCheck}); they
 * must be thread-safe. Default: no-ops.
 */
public interface TransactionalOutboxListener {

  /**
   * The local transaction of {@code message} committed; the COMMIT answer goes to the broker after
   * this returns. If this throws, the client answers {@code UNKNOW} instead and the broker later
   * asks the producer group back, which answers COMMIT from the table (what a producer that dies
   * between the commit and the answer leaves behind).
   */
  default void onLocalCommit(OutboxMessage message) {}

  /**
   * The local transaction of {@code message} was rolled back because the work threw {@code cause};
   * the ROLLBACK answer goes to the broker after this returns. If this throws, the client answers
   * {@code UNKNOW} instead and the check-back answers ROLLBACK from the table.
   */
  default void onLocalRollback(OutboxMessage message, Throwable cause) {}

  /**
   * A check-back of message {@code id} was answered (from the outbox table) with {@code answer}.
   */
  default void onCheck(UUID id, LocalTransactionState answer) {}
}
