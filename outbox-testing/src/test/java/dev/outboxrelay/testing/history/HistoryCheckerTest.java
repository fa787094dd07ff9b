package dev.outboxrelay.testing.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Each anomaly the checker must find, shown on a small hand-made history. */
class HistoryCheckerTest {
  private final History history = new History();
  private final List<Delivery> broker = new ArrayList<>();

  /** A committed write of {@code key} whose commit ran from {@code from} to {@code to}. */
  private UUID commit(String key, long from, long to) {
    UUID id = UUID.randomUUID();
    history.committed(key, id, from, to);
    return id;
  }

  private void deliver(String key, UUID id) {
    deliver(0, key, id);
  }

  private void deliver(int partition, String key, UUID id) {
    broker.add(new Delivery("t", partition, broker.size(), key, id));
  }

  private CheckReport check() {
    history.brokerHolds(broker);
    return HistoryChecker.check(history);
  }

  @Test
  void aCleanHistoryHolds() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("k", 3, 4);
    UUID c = commit("j", 1, 2);
    history.rolledBack("k", UUID.randomUUID());
    deliver("k", a);
    deliver("j", c);
    deliver("k", b);
    history.effectsApplied(Map.of(a, 1, b, 1, c, 1));
    CheckReport r = check();
    assertThat(r.holds()).as(r.toString()).isTrue();
    assertThat(r.committed()).isEqualTo(3);
    assertThat(r.rolledBack()).isEqualTo(1);
    assertThat(r.distinctDelivered()).isEqualTo(3);
  }

  @Test
  void aCommittedMessageMissingFromTheBrokerIsLost() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("k", 3, 4);
    deliver("k", a);
    CheckReport r = check();
    assertThat(r.lost()).containsExactly(b);
    assertThat(r.holds()).isFalse();
  }

  @Test
  void aRolledBackMessageOnTheBrokerIsPhantom() {
    UUID rolled = UUID.randomUUID();
    history.rolledBack("k", rolled);
    deliver("k", rolled);
    CheckReport r = check();
    assertThat(r.phantom()).containsExactly(rolled);
    assertThat(r.holds()).isFalse();
  }

  @Test
  void aMessageNobodyWroteIsPhantomToo() {
    UUID stranger = UUID.randomUUID();
    deliver("k", stranger);
    assertThat(check().phantom()).containsExactly(stranger);
  }

  @Test
  void anEffectOfARolledBackMessageIsPhantom() {
    UUID rolled = UUID.randomUUID();
    history.rolledBack("k", rolled);
    history.effectsApplied(Map.of(rolled, 1));
    assertThat(check().phantom()).containsExactly(rolled);
  }

  @Test
  void aLaterMessageFirstDeliveredBeforeAnEarlierOneIsAnOrderViolation() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("k", 3, 4);
    deliver("k", b);
    deliver("k", a);
    CheckReport r = check();
    assertThat(r.orderViolations()).hasSize(1).first().asString().contains(a.toString());
    assertThat(r.lost()).isEmpty();
    assertThat(r.holds()).isFalse();
  }

  @Test
  void orderIsJudgedPerKeyOnly() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("j", 3, 4);
    deliver("j", b);
    deliver("k", a);
    assertThat(check().orderViolations()).isEmpty();
  }

  @Test
  void overlappingCommitsMayGoOutInEitherOrder() {
    UUID a = commit("k", 1, 5);
    UUID b = commit("k", 3, 4);
    deliver("k", a);
    deliver("k", b);
    assertThat(check().orderViolations()).isEmpty();
  }

  @Test
  void aRedeliveryOfAnOldMessageIsARawDuplicateNotAViolation() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("k", 3, 4);
    deliver("k", a);
    deliver("k", b);
    deliver("k", a);
    deliver("k", b);
    CheckReport r = check();
    assertThat(r.rawDuplicates()).isEqualTo(2);
    assertThat(r.orderViolations()).isEmpty();
    assertThat(r.holds()).isTrue();
  }

  @Test
  void aViolationIsFoundBehindAGapOfSeveralMessages() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("k", 3, 4);
    UUID c = commit("k", 5, 6);
    deliver("k", c);
    deliver("k", b);
    deliver("k", a);
    assertThat(check().orderViolations()).hasSize(2);
  }

  @Test
  void brokerOrderIsPartitionThenOffsetWhateverTheReadOrder() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("k", 3, 4);
    broker.add(new Delivery("t", 0, 7, "k", b));
    broker.add(new Delivery("t", 0, 3, "k", a));
    assertThat(check().orderViolations()).isEmpty();
  }

  @Test
  void aKeySpreadOverTwoPartitionsIsAViolation() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("k", 3, 4);
    deliver(0, "k", a);
    deliver(1, "k", b);
    assertThat(check().orderViolations()).singleElement().asString().contains("t/0 and t/1");
  }

  @Test
  void aMessageDeliveredUnderAnotherKeyIsAViolation() {
    UUID a = commit("k", 1, 2);
    deliver("other", a);
    assertThat(check().orderViolations()).singleElement().asString().contains("key other");
  }

  @Test
  void anEffectAppliedTwiceIsADuplicateEffect() {
    UUID a = commit("k", 1, 2);
    deliver("k", a);
    deliver("k", a);
    history.effectApplied(a);
    history.effectApplied(a);
    CheckReport r = check();
    assertThat(r.duplicateEffects()).isEqualTo(1);
    assertThat(r.holds()).isFalse();
  }

  @Test
  void aDeliveredMessageWhoseEffectNeverHappenedIsAMissingEffect() {
    UUID a = commit("k", 1, 2);
    UUID b = commit("k", 3, 4);
    deliver("k", a);
    deliver("k", b);
    history.effectApplied(a);
    CheckReport r = check();
    assertThat(r.missingEffects()).containsExactly(b);
    assertThat(r.holds()).isFalse();
  }

  @Test
  void withoutConsumersEffectsAreNotJudged() {
    UUID a = commit("k", 1, 2);
    deliver("k", a);
    CheckReport r = check();
    assertThat(r.effectsChecked()).isFalse();
    assertThat(r.holds()).isTrue();
    assertThat(r.toString()).contains("duplicateEffects=n/a");
  }

  @Test
  void unknownWritesAreSettledByTheDatabaseTruth() {
    UUID committedAfterAll = UUID.randomUUID();
    UUID neverCommitted = UUID.randomUUID();
    history.unknown("k", committedAfterAll, 1, 2);
    history.unknown("k", neverCommitted, 3, 4);
    history.resolveUnknown(Set.of(committedAfterAll));
    CheckReport r = check();
    assertThat(r.lost()).containsExactly(committedAfterAll);
    assertThat(r.committed()).isEqualTo(1);
    assertThat(r.rolledBack()).isEqualTo(1);
    deliver("k", neverCommitted);
    assertThat(check().phantom()).containsExactly(neverCommitted);
  }

  @Test
  void anUnsettledUnknownWriteIsNeitherLostNorPhantom() {
    UUID maybe = UUID.randomUUID();
    UUID maybeNot = UUID.randomUUID();
    history.unknown("k", maybe, 1, 2);
    history.unknown("k", maybeNot, 3, 4);
    deliver("k", maybe);
    CheckReport r = check();
    assertThat(r.unknown()).isEqualTo(2);
    assertThat(r.holds()).isTrue();
  }

  @Test
  void drainTimeIsMeasuredFromRecoveryToDrain() {
    assertThat(check().drainTime()).isEmpty();
    history.recovered();
    history.drained();
    assertThat(check().drainTime()).hasValueSatisfying(d -> assertThat(d.isNegative()).isFalse());
  }
}
