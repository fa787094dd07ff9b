package dev.outboxrelay.dedup.internal;

/** A started span that is current on this thread until {@link #close()}, on the same thread. */
public interface SpanScope extends AutoCloseable {
  /** A span that records nothing. */
  SpanScope NONE = new SpanScope() {};

  /** Sets {@code outbox.dedup.outcome}: processed, duplicate or stale. */
  default void outcome(String outcome) {}

  /** Records the failure and sets the span's status to ERROR. */
  default void failed(Throwable failure) {}

  /** Leaves the span's scope and ends it. */
  @Override
  default void close() {}
}
