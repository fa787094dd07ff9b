package dev.outboxrelay.dedup;

/**
 * A decorated handler that runs its own transaction (see {@link Dedup#transactional}).
 *
 * @param <M> the message type
 */
@FunctionalInterface
public interface MessageHandler<M> {
  /**
   * Handles one delivery in one local transaction and returns after it committed.
   *
   * @throws DedupHandlerException if the handler failed (rolled back: redeliver the message)
   * @throws dev.outboxrelay.core.OutboxDatabaseException if the database failed (rolled back)
   * @throws dev.outboxrelay.core.InvalidMessageException if the message has no usable id
   */
  Outcome handle(M message);
}
