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

  /**
   * With the high-water mark on, a message with a key and a sequence but without the key-order
   * promise ({@code seq-order: key}, {@link MessageIdentity#keyOrdered()}) was processed and
   * deduped by id only: the mark neither skipped it nor advanced. Count it: it means a writer with
   * key order off (or a source that does not promise it). Called after commit in transactional
   * mode; with {@link Dedup#decorate} and {@link Dedup#claim} before the caller's commit, which may
   * still roll back (and run again).
   */
  default void onUnorderedSequence(String group, MessageIdentity message) {}

  /** The handler or the database failed; the transaction rolled back. */
  default void onFailure(String group, MessageIdentity message, Exception failure) {}
}
