package dev.outboxrelay.relay.polling;

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-key retry state: exponential backoff with jitter, bounded. Thread-safe: the worker reads it
 * for each claim while its {@code -apply} thread records outcomes.
 */
final class KeyBackoff {
  private record State(int attempts, long dueNanos) {}

  private final IntervalFunction interval;
  private final Map<String, State> keys = new HashMap<>();
  private volatile int size; // for RelayState, read from any thread

  KeyBackoff(IntervalFunction interval) {
    this.interval = interval;
  }

  /** Records a failure; returns the attempt number and sets the key's next attempt time. */
  synchronized int failed(String key) {
    State s = keys.get(key);
    int attempts = s == null ? 1 : s.attempts + 1;
    keys.put(key, new State(attempts, System.nanoTime() + delay(attempts).toNanos()));
    size = keys.size();
    return attempts;
  }

  Duration delay(int attempts) {
    return Duration.ofMillis(interval.apply(attempts));
  }

  synchronized void succeeded(String key) {
    if (keys.remove(key) != null) {
      size = keys.size();
    }
  }

  /** Keys that must not be tried yet, at most {@code limit} of them. */
  synchronized List<String> waiting(int limit) {
    long now = System.nanoTime();
    return keys.entrySet().stream()
        .filter(e -> e.getValue().dueNanos - now > 0)
        .limit(limit)
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Nanoseconds until the next waiting key is due, or {@code Long.MAX_VALUE}. */
  synchronized long nanosUntilNextDue() {
    long now = System.nanoTime();
    return keys.values().stream()
        .mapToLong(s -> s.dueNanos - now)
        .filter(d -> d > 0)
        .min()
        .orElse(Long.MAX_VALUE);
  }

  synchronized void clear() {
    keys.clear();
    size = 0;
  }

  /** Keys that failed and have not succeeded since: backing off or due for their retry. */
  int size() {
    return size;
  }
}
