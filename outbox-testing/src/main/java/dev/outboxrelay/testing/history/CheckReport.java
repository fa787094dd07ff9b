package dev.outboxrelay.testing.history;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * What {@link HistoryChecker} found. The promise holds when nothing is lost, nothing phantom, no
 * key out of order and no effect applied twice or missing; raw broker duplicates are allowed and
 * only counted.
 *
 * @param committed writes that committed (unknown ones settled as committed included)
 * @param rolledBack writes that rolled back
 * @param unknown writes whose outcome was never settled: neither lost nor phantom when absent
 * @param delivered messages the broker holds, duplicates included
 * @param distinctDelivered distinct message ids the broker holds
 * @param lost committed ids the broker does not hold
 * @param phantom ids delivered or applied that rolled back or were never written
 * @param orderViolations per key, a message whose first delivery came after the first delivery of a
 *     message that must follow it; also a key spread over several partitions
 * @param rawDuplicates deliveries beyond the first of each id
 * @param effectsChecked whether handler effects were recorded (consumers ran)
 * @param duplicateEffects effects beyond the first of each id
 * @param missingEffects committed ids whose effect was never applied
 * @param drainTime from the end of the last fault until everything was delivered and applied
 */
public record CheckReport(
    int committed,
    int rolledBack,
    int unknown,
    int delivered,
    int distinctDelivered,
    List<UUID> lost,
    List<UUID> phantom,
    List<String> orderViolations,
    int rawDuplicates,
    boolean effectsChecked,
    int duplicateEffects,
    List<UUID> missingEffects,
    Optional<Duration> drainTime) {

  /** Whether the end-to-end promise held. */
  public boolean holds() {
    return lost.isEmpty()
        && phantom.isEmpty()
        && orderViolations.isEmpty()
        && duplicateEffects == 0
        && missingEffects.isEmpty();
  }

  /** One line for logs, the first few offending ids and violations included. */
  @Override
  public String toString() {
    return "committed="
        + committed
        + " rolledBack="
        + rolledBack
        + " unknown="
        + unknown
        + " delivered="
        + delivered
        + " lost="
        + lost.size()
        + " phantom="
        + phantom.size()
        + " orderViolations="
        + orderViolations.size()
        + " duplicateEffects="
        + (effectsChecked ? duplicateEffects : "n/a")
        + " missingEffects="
        + (effectsChecked ? missingEffects.size() : "n/a")
        + " rawDuplicates="
        + rawDuplicates
        + " drain="
        + drainTime.map(d -> d.toMillis() + "ms").orElse("n/a")
        + (holds() ? "" : " first problems: " + firstProblems());
  }

  private String firstProblems() {
    return "lost "
        + lost.stream().limit(3).toList()
        + ", phantom "
        + phantom.stream().limit(3).toList()
        + ", order "
        + orderViolations.stream().limit(3).toList()
        + ", missing effects "
        + missingEffects.stream().limit(3).toList();
  }
}
