package dev.outboxrelay.relay.engine;

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The keys that failed with a transient error and have not succeeded since, each with its attempt
 * count and the time its next attempt is due: exponential backoff with jitter, bounded by the
 * relay's backoff function. The one per-key retry state of both relays and of the dead-letter
 * sweep. A key stays here after its backoff is over until {@link #succeeded} (or a park) removes
 * it, so its next failure counts as its next attempt. Thread-safe.
 */
public final class KeyBackoffs {

  /** A key's failure: its attempt number (1 for the first) and the delay before the next one. */
  public record Attempt(int number, Duration delay) {}

  private record State(int attempts, long dueNanos) {}

  private final Function<Integer, Long> backoffMillis;
  private final Ticker ticker;
  private final Map<String, State> keys = new HashMap<>();
  private volatile int size; // read without the lock, for the relay's state

  /**
   * {@code backoffMillis}: attempt number (from 1) to delay, e.g. a resilience4j IntervalFunction.
   */
  public KeyBackoffs(Function<Integer, Long> backoffMillis, Ticker ticker) {
    this.backoffMillis = backoffMillis;
    this.ticker = ticker;
  }

  /**
   * The relays' backoff: exponential from {@code initial} (factor 2) with jitter (randomisation
   * 0.5), bounded by {@code max}.
   */
  public static IntervalFunction exponential(Duration initial, Duration max) {
    return IntervalFunction.ofExponentialRandomBackoff(
        initial.toMillis(), 2.0, 0.5, max.toMillis());
  }

  /** Records a failure of {@code key}: its next attempt is due after the returned delay. */
  public synchronized Attempt failed(String key) {
    State s = keys.get(key);
    int attempts = s == null ? 1 : s.attempts + 1;
    Duration delay = Duration.ofMillis(backoffMillis.apply(attempts));
    keys.put(key, new State(attempts, ticker.read() + delay.toNanos()));
    size = keys.size();
    return new Attempt(attempts, delay);
  }

  /** The key succeeded (or was parked): forgets it. Returns whether it was backing off. */
  public synchronized boolean succeeded(String key) {
    boolean removed = keys.remove(key) != null;
    size = keys.size();
    return removed;
  }

  /** Whether the key failed and has not succeeded since (backing off, or due for its retry). */
  public synchronized boolean contains(String key) {
    return keys.containsKey(key);
  }

  /** The key's failures so far; 0 if it is not here. */
  public synchronized int attempts(String key) {
    State s = keys.get(key);
    return s == null ? 0 : s.attempts;
  }

  /** Keys whose next attempt is not due yet, at most {@code limit} of them. */
  public synchronized List<String> waiting(int limit) {
    long now = ticker.read();
    List<String> waiting = new ArrayList<>();
    for (Map.Entry<String, State> e : keys.entrySet()) {
      if (waiting.size() == limit) {
        break;
      }
      if (e.getValue().dueNanos - now > 0) {
        waiting.add(e.getKey());
      }
    }
    return waiting;
  }

  /** Keys whose backoff is over: their next attempt may be made now. */
  public synchronized List<String> due() {
    long now = ticker.read();
    List<String> due = new ArrayList<>();
    keys.forEach(
        (key, s) -> {
          if (now - s.dueNanos >= 0) {
            due.add(key);
          }
        });
    return due;
  }

  /** Nanoseconds until the next key still waiting is due; {@code Long.MAX_VALUE} if none waits. */
  public synchronized long nanosUntilNextDue() {
    long now = ticker.read();
    long next = Long.MAX_VALUE;
    for (State s : keys.values()) {
      long d = s.dueNanos - now;
      if (d > 0 && d < next) {
        next = d;
      }
    }
    return next;
  }

  /** Whether the key's backoff is over, or it is not backing off at all. */
  public synchronized boolean isDue(String key) {
    State s = keys.get(key);
    return s == null || ticker.read() - s.dueNanos >= 0;
  }

  /** Whether any key's backoff is over. */
  public synchronized boolean anyDue() {
    long now = ticker.read();
    for (State s : keys.values()) {
      if (now - s.dueNanos >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Forgets every key (the relay's keys changed hands). */
  public synchronized void clear() {
    keys.clear();
    size = 0;
  }

  /** Keys here; any thread, without the lock. */
  public int size() {
    return size;
  }
}
