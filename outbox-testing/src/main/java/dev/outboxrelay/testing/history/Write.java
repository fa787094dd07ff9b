package dev.outboxrelay.testing.history;

import java.util.Objects;
import java.util.UUID;

/**
 * One outbox write as the writer saw it.
 *
 * <p>{@code orderFrom} and {@code orderTo} place the write in its key's order: write {@code a} must
 * be delivered before {@code b} of the same key exactly when {@code a.orderTo() < b.orderFrom()}.
 * For commit order use the {@link System#nanoTime()} just before the commit call and just after it
 * returned (overlapping commits are not ordered); for insertion order use the row's sequence as
 * both bounds.
 */
public record Write(String key, UUID id, Outcome outcome, long orderFrom, long orderTo) {

  /** What became of the transaction that held the write. */
  public enum Outcome {
    COMMITTED,
    ROLLED_BACK,
    /** The commit call failed (e.g. the connection died): it may or may not have committed. */
    UNKNOWN
  }

  public Write {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(outcome, "outcome");
    if (orderTo < orderFrom) {
      throw new IllegalArgumentException(
          "orderTo must be >= orderFrom, but was " + orderTo + " < " + orderFrom);
    }
  }

  /** Whether this write must be delivered before {@code other} (same key assumed). */
  public boolean precedes(Write other) {
    return orderTo < other.orderFrom;
  }

  Write resolved(boolean committed) {
    return new Write(
        key, id, committed ? Outcome.COMMITTED : Outcome.ROLLED_BACK, orderFrom, orderTo);
  }
}
