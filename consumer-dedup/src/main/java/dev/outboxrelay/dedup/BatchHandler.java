package dev.outboxrelay.dedup;

import java.util.List;

/**
 * A decorated batch handler that runs its own transactions (see {@link Dedup#transactionalBatch}).
 *
 * @param <M> the message type
 */
@FunctionalInterface
public interface BatchHandler<M> {
  /**
   * Handles a batch in as few local transactions as its failures allow and returns after they
   * committed: all of it, or the messages before the first failing one.
   *
   * @throws dev.outboxrelay.core.OutboxDatabaseException if the database failed before any message
   *     could commit (all rolled back: redeliver the batch)
   */
  BatchOutcome handle(List<M> messages);
}
