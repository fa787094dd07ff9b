package dev.outboxrelay.dedup;

/**
 * Callbacks for metrics; every method is a no-op by default. Called on the consuming thread, so
 * keep them fast and thread-safe.
 */
public interface DedupListener {
  /** A transaction committed with this outcome (transactional mode only). */
  default void onOutcome(String group, MessageIdentity message, Outcome outcome) {}

  /** A deadlock or serialization failure rolled the transaction back; it runs again. */
  default void onRetry(String group, MessageIdentity message, int attempt, Exception failure) {}

  /** The handler or the database failed; the transaction rolled back. */
  default void onFailure(String group, MessageIdentity message, Exception failure) {}
}
