package dev.outboxrelay.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.RelayState.Phase;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class RelayStateTest {

  @Test
  void aStateWithoutCountsHasNoBucketsAndNoParkedKeys() {
    RelayState s = RelayState.of(Phase.NEW, "not started");
    assertThat(s.ownedBuckets()).isEmpty();
    assertThat(s.parkedKeys()).isEmpty();
    assertThat(s.retryingKeys()).isZero();
    assertThat(s).hasToString("NEW (not started), retryingKeys=0");
  }

  @Test
  void toStringNamesThePhaseTheReasonAndTheKnownCounts() {
    RelayState polling =
        new RelayState(
            Phase.STANDBY, "owns no key buckets", OptionalInt.of(0), 2, OptionalInt.empty());
    assertThat(polling).hasToString("STANDBY (owns no key buckets), buckets=0, retryingKeys=2");
    RelayState cdc = new RelayState(Phase.ACTIVE, "", OptionalInt.empty(), 0, OptionalInt.of(1));
    assertThat(cdc).hasToString("ACTIVE, retryingKeys=0, parkedKeys=1");
  }

  @Test
  void rejectsANegativeCountAndMissingParts() {
    assertThatThrownBy(
            () -> new RelayState(Phase.ACTIVE, "", OptionalInt.empty(), -1, OptionalInt.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retryingKeys must be >= 0, but was -1");
    assertThatThrownBy(() -> RelayState.of(Phase.ACTIVE, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("reason");
  }
}
