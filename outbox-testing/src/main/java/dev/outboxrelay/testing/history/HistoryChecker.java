package dev.outboxrelay.testing.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Judges a {@link History}: lost, phantom, per-key order by first delivery, duplicate and missing
 * effects, raw broker duplicates. Order is judged only between writes that {@link
 * Write#precedes(Write) must} follow one another, so overlapping commits are never a violation.
 */
public final class HistoryChecker {
  private HistoryChecker() {}

  public static CheckReport check(History history) {
    Map<UUID, Write> writes = new HashMap<>();
    history.writes().forEach(w -> writes.put(w.id(), w));
    List<Delivery> deliveries = new ArrayList<>(history.deliveries());
    deliveries.sort(
        Comparator.comparing(Delivery::topic)
            .thenComparingInt(Delivery::partition)
            .thenComparingLong(Delivery::offset));
    Map<UUID, Delivery> first = new LinkedHashMap<>();
    deliveries.forEach(d -> first.putIfAbsent(d.id(), d));

    List<UUID> lost = new ArrayList<>();
    List<UUID> missingEffects = new ArrayList<>();
    var effects = history.effects();
    int committed = 0;
    int rolledBack = 0;
    int unknown = 0;
    for (Write w : writes.values()) {
      switch (w.outcome()) {
        case COMMITTED -> {
          committed++;
          if (!first.containsKey(w.id())) {
            lost.add(w.id());
          }
          if (effects.isPresent() && effects.get().getOrDefault(w.id(), 0) == 0) {
            missingEffects.add(w.id());
          }
        }
        case ROLLED_BACK -> rolledBack++;
        case UNKNOWN -> unknown++;
      }
    }
    Set<UUID> phantom = new LinkedHashSet<>();
    first.keySet().stream().filter(id -> isPhantom(writes.get(id))).forEach(phantom::add);
    int duplicateEffects = 0;
    if (effects.isPresent()) {
      for (Map.Entry<UUID, Integer> e : effects.get().entrySet()) {
        duplicateEffects += Math.max(0, e.getValue() - 1);
        if (e.getValue() > 0 && isPhantom(writes.get(e.getKey()))) {
          phantom.add(e.getKey());
        }
      }
    }
    return new CheckReport(
        committed,
        rolledBack,
        unknown,
        deliveries.size(),
        first.size(),
        lost,
        List.copyOf(phantom),
        OrderCheck.violations(writes, first.values()),
        deliveries.size() - first.size(),
        effects.isPresent(),
        duplicateEffects,
        missingEffects,
        history.drainTime());
  }

  private static boolean isPhantom(Write w) {
    return w == null || w.outcome() == Write.Outcome.ROLLED_BACK;
  }
}
