package dev.outboxrelay.testing.history;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/** Per-key order by first delivery, in one pass: O(deliveries). */
final class OrderCheck {
  private OrderCheck() {}

  /**
   * @param firstDeliveries the first delivery of each id, in broker order (topic, partition,
   *     offset)
   */
  static List<String> violations(Map<UUID, Write> writes, Collection<Delivery> firstDeliveries) {
    List<String> violations = new ArrayList<>();
    Map<String, Write> latestStarted = new HashMap<>();
    Map<String, String> partitionOfKey = new HashMap<>();
    for (Delivery d : firstDeliveries) {
      Write w = writes.get(d.id());
      if (w == null || w.outcome() != Write.Outcome.COMMITTED) {
        continue; // phantoms and unsettled writes are judged elsewhere
      }
      if (!Objects.equals(d.key(), w.key())) {
        violations.add(
            d.id() + " written with key " + w.key() + " but delivered with key " + d.key());
        continue;
      }
      String partition = d.topic() + "/" + d.partition();
      String before = partitionOfKey.putIfAbsent(w.key(), partition);
      if (before != null && !before.equals(partition)) {
        violations.add("key " + w.key() + " delivered on " + before + " and " + partition);
        partitionOfKey.put(w.key(), partition);
      }
      // Some earlier-delivered message of the key began committing after this one ended.
      Write latest = latestStarted.get(w.key());
      if (latest != null && w.precedes(latest)) {
        violations.add(
            "key "
                + w.key()
                + ": "
                + w.id()
                + " first delivered after "
                + latest.id()
                + ", which must follow it");
      }
      if (latest == null || w.orderFrom() > latest.orderFrom()) {
        latestStarted.put(w.key(), w);
      }
    }
    return violations;
  }
}
