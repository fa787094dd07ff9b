package dev.outboxrelay.dedup;

import java.sql.Connection;

/**
 * Application code that handles one message. Its writes on {@code connection} join the dedup
 * transaction: they commit together with the dedup record or roll back with it. The handler must
 * not commit, roll back or close the connection.
 *
 * @param <M> the message type, e.g. Kafka's {@code ConsumerRecord} or RocketMQ's {@code MessageExt}
 */
@FunctionalInterface
public interface DedupHandler<M> {
  /**
   * Handles the message; throwing rolls the transaction back and the message is redelivered.
   *
   * @throws Exception any failure
   */
  void handle(Connection connection, M message) throws Exception;
}
