package dev.outboxrelay.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A published batch split the way every relay applies it: per key, the acknowledged prefix, then
 * the key's first failure, transient or for good; later messages of a failed key are ignored. Used
 * by both relays, and by any relay built on the {@link Publisher} SPI. Immutable (the lists are the
 * caller's; {@link #of} builds new ones).
 */
public record BatchOutcome(
    List<OutboxMessage> acknowledged,
    List<PublishResult> transientFailures,
    List<PublishResult> rejected) {

  /**
   * Publishes and waits ({@link Publisher#sendBuffered} first: nothing waits out a linger); a
   * timeout or a failed stage counts as a transient failure of all.
   */
  public static List<PublishResult> publish(
      Publisher publisher, List<OutboxMessage> messages, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    CompletionStage<List<PublishResult>> publishing = publisher.publish(messages);
    publisher.sendBuffered();
    return await(publishing, messages, deadline);
  }

  /**
   * Waits for a publish already started, until {@code deadlineNanos} ({@link System#nanoTime()}); a
   * timeout or a failed stage counts as a transient failure of all.
   */
  public static List<PublishResult> await(
      CompletionStage<List<PublishResult>> publishing,
      List<OutboxMessage> messages,
      long deadlineNanos)
      throws InterruptedException {
    try {
      return publishing
          .toCompletableFuture()
          .get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      RetriablePublishException f =
          new RetriablePublishException("publish did not complete: " + e, e);
      return messages.stream().map(m -> PublishResult.failed(m, f)).toList();
    }
  }

  /**
   * Splits results (in publish order).
   *
   * @param stopped keys already stopped in this batch; keys that fail are added
   */
  public static BatchOutcome of(List<PublishResult> results, Set<String> stopped) {
    List<OutboxMessage> acknowledged = new ArrayList<>();
    List<PublishResult> transientFailures = new ArrayList<>();
    List<PublishResult> rejected = new ArrayList<>();
    for (PublishResult r : results) {
      String key = r.message().aggregateId();
      if (stopped.contains(key)) {
        continue;
      }
      if (r.isAcknowledged()) {
        acknowledged.add(r.message());
        continue;
      }
      stopped.add(key);
      PublishException failure = r.failure().orElseThrow();
      (failure.isRetriable() ? transientFailures : rejected).add(r);
    }
    return new BatchOutcome(acknowledged, transientFailures, rejected);
  }

  /** Nothing acknowledged, nothing rejected: the broker looks unavailable. */
  public boolean isOutage() {
    return acknowledged.isEmpty() && rejected.isEmpty() && !transientFailures.isEmpty();
  }
}
