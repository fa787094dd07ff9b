package dev.outboxrelay.dedup;

import java.util.List;

/**
 * What happened to a batch: the outcomes of the messages that committed, a prefix of the batch in
 * its order, and the failure of the message after them, if any. Redeliver from message {@code
 * outcomes().size()} when {@link #failure()} is not {@code null}.
 *
 * @param outcomes one per committed message, in batch order
 * @param failure why message {@code outcomes().size()} did not commit, or {@code null} if all did
 */
public record BatchOutcome(List<Outcome> outcomes, RuntimeException failure) {
  public BatchOutcome {
    outcomes = List.copyOf(outcomes);
  }

  /** Whether every message of the batch committed. */
  public boolean complete() {
    return failure == null;
  }

  /** How many messages, from the first, committed. */
  public int committed() {
    return outcomes.size();
  }
}
