package dev.outboxrelay.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KeyHoldsTest {
  private final AtomicLong now = new AtomicLong();
  private final KeyHolds holds = new KeyHolds(new KeyBackoffs(attempt -> 100L, now::get));

  @Test
  void aKeyBackingOffIsHeldUntilItsDrainEnds() {
    holds.backoffs().failed("k");
    assertThat(holds.isHeld("k")).isTrue();
    assertThat(holds.mayBeDue()).isFalse();
    assertThat(holds.due()).isEmpty();

    now.addAndGet(Duration.ofMillis(100).toNanos());
    assertThat(holds.mayBeDue()).isTrue();
    assertThat(holds.due()).containsExactly("k");
    assertThat(holds.isHeld("k")).as("due, waiting for its drain").isTrue();

    holds.draining("k");
    assertThat(holds.isHeld("k")).as("its drain publishes its rows").isFalse();
    holds.drained("k");
    assertThat(holds.isHeld("k")).isFalse();
    assertThat(holds.retrying()).isZero();
  }

  @Test
  void aDrainThatFailsLeavesTheKeyHeld() {
    holds.backoffs().failed("k");
    now.addAndGet(Duration.ofMillis(100).toNanos());
    holds.due();
    holds.draining("k");
    holds.backoffs().failed("k"); // its drain failed again
    holds.drainFailed();
    assertThat(holds.isHeld("k")).isTrue();
    assertThat(holds.due()).isEmpty();
  }

  @Test
  void anUnparkedKeyIsDrainedBeforeItFlowsAgain() {
    holds.park("k");
    assertThat(holds.isHeld("k")).isTrue();
    assertThat(holds.parkedCount()).isEqualTo(1);
    holds.parked(Set.of()); // the operator unparked it
    assertThat(holds.isHeld("k")).isTrue();
    assertThat(holds.due()).containsExactly("k");
    holds.draining("k");
    assertThat(holds.isHeld("k")).isFalse();
    holds.drained("k");
    assertThat(holds.due()).isEmpty();
    assertThat(holds.parkedCount()).isZero();
  }

  @Test
  void parkingAKeyEndsItsBackoff() {
    holds.backoffs().failed("k");
    holds.park("k");
    assertThat(holds.retrying()).isZero();
    assertThat(holds.isParked("k")).isTrue();
  }
}
