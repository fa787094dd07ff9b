package dev.outboxrelay.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KeyBackoffsTest {
  private final AtomicLong now = new AtomicLong(42);
  private final KeyBackoffs backoffs = new KeyBackoffs(attempt -> 100L * attempt, now::get);

  @Test
  void aFailedKeyWaitsOutItsDelayThenIsDueUntilItSucceeds() {
    assertThat(backoffs.failed("k")).isEqualTo(new KeyBackoffs.Attempt(1, Duration.ofMillis(100)));
    assertThat(backoffs.waiting(10)).containsExactly("k");
    assertThat(backoffs.due()).isEmpty();
    assertThat(backoffs.nanosUntilNextDue()).isEqualTo(Duration.ofMillis(100).toNanos());

    advance(100);
    assertThat(backoffs.waiting(10)).isEmpty();
    assertThat(backoffs.due()).containsExactly("k");
    assertThat(backoffs.anyDue()).isTrue();
    assertThat(backoffs.contains("k")).as("due, not forgotten").isTrue();

    assertThat(backoffs.failed("k").number())
        .as("its next failure is its next attempt")
        .isEqualTo(2);
    assertThat(backoffs.isDue("k")).isFalse();
    assertThat(backoffs.succeeded("k")).isTrue();
    assertThat(backoffs.size()).isZero();
    assertThat(backoffs.isDue("k")).as("a key not backing off may go").isTrue();
    assertThat(backoffs.nanosUntilNextDue()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void theNextDueIsTheEarliestKeyStillWaiting() {
    backoffs.failed("a"); // due at 100 ms
    advance(50);
    backoffs.failed("b"); // due at 150 ms
    backoffs.failed("b"); // attempt 2: due at 250 ms
    assertThat(backoffs.nanosUntilNextDue()).isEqualTo(Duration.ofMillis(50).toNanos());
    advance(60);
    assertThat(backoffs.due()).containsExactly("a");
    assertThat(backoffs.nanosUntilNextDue()).isEqualTo(Duration.ofMillis(140).toNanos());
    assertThat(backoffs.waiting(1)).containsExactly("b");
    assertThat(backoffs.waiting(0)).isEmpty();
  }

  @Test
  void theTickerMayWrapAroundZero() {
    now.set(Long.MAX_VALUE - Duration.ofMillis(10).toNanos());
    backoffs.failed("k");
    advance(50);
    assertThat(backoffs.waiting(10)).containsExactly("k");
    advance(50);
    assertThat(backoffs.due()).containsExactly("k");
  }

  @Test
  void theRelaysBackoffGrowsWithJitterUpToItsBound() {
    KeyBackoffs jittered =
        new KeyBackoffs(IntervalFunction.ofExponentialRandomBackoff(100, 2.0, 0.5, 1000), now::get);
    assertThat(jittered.failed("k").delay().toMillis()).isBetween(50L, 150L);
    jittered.failed("k");
    assertThat(jittered.failed("k").delay().toMillis()).isBetween(200L, 600L);
    for (int i = 0; i < 20; i++) {
      jittered.failed("k");
    }
    assertThat(jittered.failed("k").delay().toMillis()).isLessThanOrEqualTo(1000L);
  }

  @Test
  void clearForgetsEveryKey() {
    backoffs.failed("a");
    backoffs.failed("b");
    backoffs.clear();
    assertThat(backoffs.size()).isZero();
    assertThat(backoffs.failed("a").number()).isEqualTo(1);
  }

  private void advance(long millis) {
    now.addAndGet(Duration.ofMillis(millis).toNanos());
  }
}
