package dev.outboxrelay.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Checks what a broker holds against what was committed and rolled back: lost, phantom (rolled back
 * yet published), duplicates, and per-key order violations by first delivery.
 */
public record DeliveryCheck(
    int committed,
    int delivered,
    int distinct,
    List<UUID> lost,
    List<UUID> phantom,
    int duplicates,
    List<String> orderViolations) {

  /**
   * @param committedByKey committed message ids per key, in the order they must be delivered
   * @param rolledBack ids of messages whose transaction rolled back
   * @param received what the broker holds, in delivery order
   */
  public static DeliveryCheck of(
      Map<String, List<UUID>> committedByKey,
      Collection<UUID> rolledBack,
      List<ReceivedMessage> received) {
    Set<UUID> committed = new HashSet<>();
    committedByKey.values().forEach(committed::addAll);
    Set<UUID> rolled = new HashSet<>(rolledBack);
    Map<String, List<UUID>> firstByKey = new LinkedHashMap<>();
    Set<UUID> seen = new HashSet<>();
    List<UUID> phantom = new ArrayList<>();
    int duplicates = 0;
    for (ReceivedMessage m : received) {
      UUID id = m.id();
      if (!seen.add(id)) {
        duplicates++;
        continue;
      }
      if (rolled.contains(id) || !committed.contains(id)) {
        phantom.add(id);
      }
      firstByKey.computeIfAbsent(m.key(), k -> new ArrayList<>()).add(id);
    }
    List<UUID> lost = committed.stream().filter(id -> !seen.contains(id)).toList();
    return new DeliveryCheck(
        committed.size(),
        received.size(),
        seen.size(),
        lost,
        phantom,
        duplicates,
        orderViolations(committedByKey, firstByKey));
  }

  private static List<String> orderViolations(
      Map<String, List<UUID>> expected, Map<String, List<UUID>> firstDeliveries) {
    List<String> violations = new ArrayList<>();
    for (Map.Entry<String, List<UUID>> e : firstDeliveries.entrySet()) {
      Map<UUID, Integer> rank = new HashMap<>();
      List<UUID> order = expected.getOrDefault(e.getKey(), List.of());
      for (int i = 0; i < order.size(); i++) {
        rank.put(order.get(i), i);
      }
      int last = -1;
      for (UUID id : e.getValue()) {
        int r = rank.getOrDefault(id, -1);
        if (r >= 0 && r < last) {
          violations.add(e.getKey() + ": " + id + " delivered after a later message");
        }
        last = Math.max(last, r);
      }
    }
    return violations;
  }

  /** Whether nothing was lost, nothing phantom and no key out of order. */
  public boolean holds() {
    return lost.isEmpty() && phantom.isEmpty() && orderViolations.isEmpty();
  }

  @Override
  public String toString() {
    return "committed="
        + committed
        + " delivered="
        + delivered
        + " distinct="
        + distinct
        + " lost="
        + lost.size()
        + " phantom="
        + phantom.size()
        + " duplicates="
        + duplicates
        + " orderViolations="
        + orderViolations.size();
  }
}
