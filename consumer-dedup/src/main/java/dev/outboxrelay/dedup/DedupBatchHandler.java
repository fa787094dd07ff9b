package dev.outboxrelay.dedup;

import java.sql.Connection;
import java.util.List;

/**
 * Application code that handles a batch of messages in one call, e.g. one JDBC batch insert. It
 * gets only the batch's <em>new</em> messages (not duplicates, not stale), in delivery order; its
 * writes on {@code connection} commit or roll back with the batch's dedup records. It must not
 * commit, roll back or close the connection.
 *
 * <p>To say which message failed, throw {@link DedupBatchItemException} with its index in {@code
 * messages}: the messages before it then commit once and the failed one is redelivered. Any other
 * exception rolls the batch back and the batch is split in halves until the failing message is
 * found (see {@link Dedup#transactionalBatch}).
 *
 * @param <M> the message type
 */
@FunctionalInterface
public interface DedupBatchHandler<M> {
  /**
   * Handles the new messages of a batch.
   *
   * @throws Exception any failure; {@link DedupBatchItemException} to name the failed message
   */
  void handle(Connection connection, List<M> messages) throws Exception;

  /**
   * A batch handler that runs a per-message handler for each message in order; a failure names its
   * message, so nothing is split.
   */
  static <M> DedupBatchHandler<M> each(DedupHandler<M> handler) {
    return new EachHandler<>(handler);
  }
}
