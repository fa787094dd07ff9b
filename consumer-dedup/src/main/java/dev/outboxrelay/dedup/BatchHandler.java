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
   * committed: all of it, or the messages before the first failing one. Handler and database
   * failures are not thrown: they are in the outcome, at the index to redeliver from.
   */
  BatchOutcome handle(List<M> messages);
}
