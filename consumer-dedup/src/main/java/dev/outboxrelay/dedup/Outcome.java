package dev.outboxrelay.dedup;

/** What happened to one delivery. */
public enum Outcome {
  /** First delivery: the handler ran and committed together with the dedup record. */
  PROCESSED,
  /** The group processed this message id before: the handler was skipped. */
  DUPLICATE,
  /**
   * The high-water mark of the message's key is at or above its sequence (an older or replayed
   * message): the handler was skipped.
   */
  STALE
}
