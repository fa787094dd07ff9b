package dev.outboxrelay.relay.cdc;

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keys whose stream events are skipped (their rows stay pending in the table): parked keys (an
 * operator must act) and keys backing off after a transient failure. A key released from either is
 * drained from the table, in order, before its next stream event. Processor thread only, except the
 * counts ({@link #retrying()}, {@link #parkedCount()}), read for the relay's state.
 */
final class KeyHolds {
  private record Backoff(int attempts, long dueNanos) {}

  private final IntervalFunction interval;
  private final Map<String, Backoff> blocked = new HashMap<>();
  private final Set<String> toDrain = new HashSet<>();
  private Set<String> parked = Set.of();
  private String draining;
  private volatile int retrying;
  private volatile int parkedCount;
  private volatile long nextDueNanos = Long.MAX_VALUE; // a hint for the relay's 20 ms check

  KeyHolds(IntervalFunction interval) {
    this.interval = interval;
  }

  boolean isHeld(String key) {
    if (key.equals(draining)) {
      return false;
    }
    return parked.contains(key) || blocked.containsKey(key) || toDrain.contains(key);
  }

  /** The key is being drained from the table now: its rows may be published. */
  void draining(String key) {
    toDrain.remove(key);
    draining = key;
  }

  /** Records a transient failure; returns the delay before the key is drained again. */
  Duration block(String key) {
    Backoff b = blocked.get(key);
    int attempts = b == null ? 1 : b.attempts + 1;
    Duration delay = Duration.ofMillis(interval.apply(attempts));
    long due = System.nanoTime() + delay.toNanos();
    blocked.put(key, new Backoff(attempts, due));
    if (nextDueNanos == Long.MAX_VALUE || due - nextDueNanos < 0) {
      nextDueNanos = due;
    }
    counted();
    if (key.equals(draining)) {
      draining = null;
    }
    return delay;
  }

  void park(String key) {
    Set<String> p = new HashSet<>(parked);
    p.add(key);
    parked = p;
    blocked.remove(key);
    counted();
    if (key.equals(draining)) {
      draining = null;
    }
  }

  /** Takes the parked keys from the database; keys no longer parked must be drained. */
  void parked(Set<String> nowParked) {
    for (String k : parked) {
      if (!nowParked.contains(k)) {
        toDrain.add(k);
      }
    }
    parked = nowParked;
    counted();
  }

  /** Keys to drain now: released from parking, or whose backoff is over. */
  List<String> due() {
    long now = System.nanoTime();
    long next = Long.MAX_VALUE;
    for (Map.Entry<String, Backoff> e : blocked.entrySet()) {
      long dueNanos = e.getValue().dueNanos;
      if (now - dueNanos >= 0) {
        toDrain.add(e.getKey());
      } else if (next == Long.MAX_VALUE || dueNanos - next < 0) {
        next = dueNanos;
      }
    }
    nextDueNanos = next;
    return List.copyOf(toDrain);
  }

  /**
   * Whether a blocked key's backoff may be over, so that {@link #due()} is worth a call; any
   * thread, without the processor's lock.
   */
  boolean mayBeDue() {
    long next = nextDueNanos;
    return next != Long.MAX_VALUE && System.nanoTime() - next >= 0;
  }

  /** The key was drained completely: it flows with the stream again. */
  void drained(String key) {
    draining = null;
    blocked.remove(key);
    counted();
  }

  /** Draining stopped at a failure: the key stays held (blocked or parked). */
  void drainFailed() {
    draining = null;
  }

  /** Failures of a blocked key so far (0 if not blocked). */
  int attempts(String key) {
    Backoff b = blocked.get(key);
    return b == null ? 0 : b.attempts;
  }

  boolean isParked(String key) {
    return parked.contains(key);
  }

  /** Keys backing off after a transient failure; any thread. */
  int retrying() {
    return retrying;
  }

  /** Parked keys as last read from the table or parked here; any thread. */
  int parkedCount() {
    return parkedCount;
  }

  private void counted() {
    retrying = blocked.size();
    parkedCount = parked.size();
  }
}
