package dev.outboxrelay.core;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Callbacks from a relay (polling or CDC) for metrics and tests; every method has a no-op default.
 * Called on the relay's worker thread: keep them fast and never throw (exceptions are logged and
 * ignored).
 */
public interface RelayListener {

  /** A claim returned {@code claimed} rows; {@code oldestAge} is the age of the oldest one. */
  default void onClaimed(int claimed, Duration oldestAge) {}

  /** These messages were acknowledged by the broker and marked done, in publish order. */
  default void onPublished(List<OutboxMessage> messages, Duration publishLatency) {}

  /** A message failed and its key backs off; {@code attempt} counts from 1. */
  default void onRetry(
      OutboxMessage message, PublishException failure, int attempt, Duration delay) {}

  /** A key was parked with the reason stored. */
  default void onParked(String aggregateId, OutboxMessage message, String reason) {}

  /** A parked key's message was copied to the dead-letter topic and the copy recorded. */
  default void onDeadLettered(String aggregateId, OutboxMessage message, String topic) {}

  /**
   * Copying a parked key's message to the dead-letter topic failed; it is tried again after {@code
   * delay} ({@code attempt} counts from 1). The key stays parked either way.
   */
  default void onDeadLetterFailed(
      String aggregateId, PublishException failure, int attempt, Duration delay) {}

  /**
   * Polling relay: marks were refused because the lease was lost (another relay owns the bucket).
   */
  default void onFenced(int refusedMarks) {}

  /** Polling relay: the set of owned key buckets changed. */
  default void onLeasesChanged(Set<Integer> buckets) {}

  /** A database or unexpected error; the relay backs off and carries on. */
  default void onError(Exception error, Duration delay) {}
}
