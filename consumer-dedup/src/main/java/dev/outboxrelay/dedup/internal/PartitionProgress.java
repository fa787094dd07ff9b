package dev.outboxrelay.dedup.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Per-partition state of one consumer loop: offsets processed (their transactions committed) but
 * not yet committed to Kafka, and partitions paused after a handler failure. Loop thread only.
 */
public final class PartitionProgress {
  private final Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();
  private final Map<TopicPartition, Integer> failures = new HashMap<>();
  private final Map<TopicPartition, Long> resumeAt = new HashMap<>();

  /** The record before {@code nextOffset} committed in the database. */
  public void processed(TopicPartition tp, long nextOffset) {
    pending.put(tp, new OffsetAndMetadata(nextOffset));
    failures.remove(tp);
  }

  /** Offsets to commit; empty if none. */
  public Map<TopicPartition, OffsetAndMetadata> pending() {
    return Map.copyOf(pending);
  }

  /** Offsets to commit among these partitions. */
  public Map<TopicPartition, OffsetAndMetadata> pending(Collection<TopicPartition> partitions) {
    Map<TopicPartition, OffsetAndMetadata> some = new HashMap<>();
    for (TopicPartition tp : partitions) {
      if (pending.containsKey(tp)) {
        some.put(tp, pending.get(tp));
      }
    }
    return some;
  }

  /** Forgets committed offsets (if they are still the latest). */
  public void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
    offsets.forEach(pending::remove);
  }

  /** Forgets everything about partitions no longer assigned. */
  public void forget(Collection<TopicPartition> partitions) {
    for (TopicPartition tp : partitions) {
      pending.remove(tp);
      failures.remove(tp);
      resumeAt.remove(tp);
    }
  }

  /** Records a failure and returns its attempt number (1 = first failure in a row). */
  public int failed(TopicPartition tp, Backoff backoff) {
    int attempt = failures.merge(tp, 1, Integer::sum);
    resumeAt.put(tp, System.nanoTime() + backoff.delay(attempt).toNanos());
    return attempt;
  }

  /** Whether this partition is paused for a failure's backoff. */
  public boolean backingOff(TopicPartition tp) {
    return resumeAt.containsKey(tp);
  }

  /** Paused partitions whose backoff is over; they are no longer tracked as paused. */
  public List<TopicPartition> due() {
    long now = System.nanoTime();
    List<TopicPartition> due = new ArrayList<>();
    resumeAt.forEach(
        (tp, at) -> {
          if (now - at >= 0) {
            due.add(tp);
          }
        });
    due.forEach(resumeAt::remove);
    return due;
  }

  /** How long to poll at most so a paused partition resumes on time. */
  public Duration pollTimeout(Duration max) {
    long now = System.nanoTime();
    long wait = max.toNanos();
    for (long at : resumeAt.values()) {
      wait = Math.min(wait, Math.max(0, at - now));
    }
    return Duration.ofNanos(wait);
  }
}
