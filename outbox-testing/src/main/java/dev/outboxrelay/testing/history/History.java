package dev.outboxrelay.testing.history;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything one run did, recorded as it happens and judged afterwards by {@link HistoryChecker}:
 * writes (committed, rolled back, unknown), what the broker holds, handler effects, and when the
 * system recovered from its last fault and when it had drained. Thread-safe.
 */
public final class History {
  private final Map<UUID, Write> writes = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
  private final Map<UUID, AtomicInteger> effects = new ConcurrentHashMap<>();
  private volatile boolean effectsRecorded;
  private volatile long recoveredAt = Long.MIN_VALUE;
  private volatile long drainedAt = Long.MIN_VALUE;

  /** Records a write; a second record of the same id replaces the first. */
  public void write(Write write) {
    writes.put(write.id(), write);
  }

  public void committed(String key, UUID id, long orderFrom, long orderTo) {
    write(new Write(key, id, Write.Outcome.COMMITTED, orderFrom, orderTo));
  }

  public void rolledBack(String key, UUID id) {
    write(new Write(key, id, Write.Outcome.ROLLED_BACK, 0, 0));
  }

  /** A write whose commit call failed: it may or may not have committed. */
  public void unknown(String key, UUID id, long orderFrom, long orderTo) {
    write(new Write(key, id, Write.Outcome.UNKNOWN, orderFrom, orderTo));
  }

  /**
   * Settles every {@link Write.Outcome#UNKNOWN} write from the database's truth, e.g. the ids of
   * the business rows that committed with their outbox rows.
   */
  public void resolveUnknown(Set<UUID> committedIds) {
    writes.replaceAll(
        (id, w) ->
            w.outcome() == Write.Outcome.UNKNOWN ? w.resolved(committedIds.contains(id)) : w);
  }

  /** Replaces the recorded broker contents with what a reader read from the beginning. */
  public void brokerHolds(Collection<Delivery> all) {
    deliveries.clear();
    deliveries.addAll(all);
  }

  /** Records one applied handler effect (call once per effect, duplicates included). */
  public void effectApplied(UUID id) {
    effectsRecorded = true;
    effects.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
  }

  /** Replaces the recorded effects with counts read afterwards, e.g. from the effect table. */
  public void effectsApplied(Map<UUID, Integer> countsById) {
    effectsRecorded = true;
    effects.clear();
    countsById.forEach((id, n) -> effects.put(id, new AtomicInteger(n)));
  }

  /** Marks the end of the last fault: drain time is measured from here. */
  public void recovered() {
    recoveredAt = System.nanoTime();
  }

  /** Marks the moment everything committed had been delivered and applied. */
  public void drained() {
    drainedAt = System.nanoTime();
  }

  public Collection<Write> writes() {
    return List.copyOf(writes.values());
  }

  public List<Delivery> deliveries() {
    return List.copyOf(deliveries);
  }

  /** Effect count per message id, or empty if no effect was ever recorded (no consumers). */
  public Optional<Map<UUID, Integer>> effects() {
    if (!effectsRecorded) {
      return Optional.empty();
    }
    Map<UUID, Integer> counts = new ConcurrentHashMap<>();
    effects.forEach((id, n) -> counts.put(id, n.get()));
    return Optional.of(counts);
  }

  /** From {@link #recovered()} to {@link #drained()}, if both were marked in that order. */
  public Optional<Duration> drainTime() {
    long from = recoveredAt;
    long to = drainedAt;
    if (from == Long.MIN_VALUE || to == Long.MIN_VALUE || to < from) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofNanos(to - from));
  }
}
