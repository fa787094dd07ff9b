package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxException;

/**
 * Thrown by a {@link DedupBatchHandler} to name the message that failed: {@link #index()} in the
 * list the handler was given. The messages before it are committed once; the failed one and those
 * after it are redelivered. The cause is the failure.
 */
public class DedupBatchItemException extends OutboxException {
  private static final long serialVersionUID = 1L;
  private final int index;

  /**
   * @param index the failed message's index in the list the handler was given
   * @param cause the failure
   */
  public DedupBatchItemException(int index, Throwable cause) {
    super("Message " + index + " of the batch failed: " + cause, cause);
    this.index = index;
  }

  /** The failed message's index in the list the handler was given. */
  public int index() {
    return index;
  }
}
