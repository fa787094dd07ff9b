package dev.outboxrelay.relay.polling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WakerTest {
  private final Waker waker = new Waker();

  @Test
  void withoutAnAnnouncementAnIdleWaitIsThePollInterval() {
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), System.nanoTime()))
        .isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void shortlyAfterAnAnnouncementIdleWaitsAreFollowUps() {
    waker.announce();
    long now = System.nanoTime();
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), now)).isEqualTo(Waker.FOLLOW_UP);
    assertThat(waker.idleTimeout(Duration.ofMillis(3), now))
        .as("a shorter wait (a key's retry) stays as it is")
        .isEqualTo(Duration.ofMillis(3));
  }

  @Test
  void afterTheWindowTheIdleWaitIsThePollIntervalAgain() {
    waker.announce();
    long later = System.nanoTime() + Waker.FOLLOW_UP_WINDOW.toNanos() + 1;
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), later)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void anAnnouncementEndsAWaitAndIsConsumedByIt() throws InterruptedException {
    waker.announce();
    waker.await(Duration.ofMinutes(5)); // returns at once: the announcement woke it
    long before = System.nanoTime();
    waker.await(Duration.ofMillis(1));
    assertThat(System.nanoTime() - before).as("no wake-up left").isGreaterThanOrEqualTo(1_000_000);
  }
}
