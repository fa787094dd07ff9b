package dev.outboxrelay.relay.engine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys a row source must not publish from its own flow, because their next rows have to come
 * from the table, in order: parked keys (an operator must act), keys backing off after a transient
 * failure ({@link KeyBackoffs}), and keys released from either that wait for their drain. The key
 * being drained is never held, so that its rows can go out. A source that reads only pending,
 * unparked rows of keys not backing off (the polling claim) needs only the backoffs; a source that
 * carries every row as it commits (the CDC stream) holds keys with this. One thread changes it;
 * {@link #retrying()}, {@link #parkedCount()} and {@link #mayBeDue()} may be read from any.
 */
public final class KeyHolds {
  private final KeyBackoffs backoffs;
  private final Set<String> toDrain = new HashSet<>();
  private Set<String> parked = Set.of();
  private String draining;
  private volatile int parkedCount;

  public KeyHolds(KeyBackoffs backoffs) {
    this.backoffs = backoffs;
  }

  /** The backoffs of the held keys, shared with the {@link KeyDelivery} that fails them. */
  public KeyBackoffs backoffs() {
    return backoffs;
  }

  public boolean isHeld(String key) {
    if (parked.contains(key) || toDrain.contains(key)) {
      return true;
    }
    return !key.equals(draining) && backoffs.contains(key);
  }

  /** The key is being drained from the table now: its rows may be published. */
  public void draining(String key) {
    toDrain.remove(key);
    draining = key;
  }

  /** The key was parked here: held until the table says it is unparked. */
  public void park(String key) {
    Set<String> p = new HashSet<>(parked);
    p.add(key);
    parked = p;
    backoffs.succeeded(key);
    parkedCount = p.size();
  }

  /** Takes the parked keys from the table; keys no longer parked must be drained. */
  public void parked(Set<String> nowParked) {
    for (String k : parked) {
      if (!nowParked.contains(k)) {
        toDrain.add(k);
      }
    }
    parked = nowParked;
    parkedCount = nowParked.size();
  }

  /** Keys to drain now: released from parking, or whose backoff is over. */
  public List<String> due() {
    toDrain.addAll(backoffs.due());
    return new ArrayList<>(toDrain);
  }

  /**
   * Whether a backing-off key may be due, so that {@link #due()} is worth the caller's lock; any
   * thread.
   */
  public boolean mayBeDue() {
    return backoffs.size() > 0 && backoffs.anyDue();
  }

  /** The key was drained completely: it flows with the source again. */
  public void drained(String key) {
    draining = null;
    backoffs.succeeded(key);
  }

  /** Draining stopped at a failure: the key stays held (backing off or parked). */
  public void drainFailed() {
    draining = null;
  }

  public boolean isParked(String key) {
    return parked.contains(key);
  }

  /** Keys backing off after a transient failure; any thread. */
  public int retrying() {
    return backoffs.size();
  }

  /** Parked keys as last read from the table or parked here; any thread. */
  public int parkedCount() {
    return parkedCount;
  }
}
