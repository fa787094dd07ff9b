package dev.outboxrelay.relay.polling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WakerTest {
  private final Waker waker = new Waker();

  @Test
  void withoutAnAnnouncementAnIdleWaitIsThePollInterval() {
    long now = System.nanoTime();
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), now, now)).isEqualTo(Duration.ofSeconds(5));
    assertThat(waker.followingUp(now)).isFalse();
  }

  @Test
  void shortlyAfterAnAnnouncementIdleWaitsAreFollowUps() {
    waker.announce();
    long now = System.nanoTime();
    assertThat(waker.followingUp(now)).isTrue();
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), now, now)).isEqualTo(Waker.FOLLOW_UP);
    assertThat(waker.idleTimeout(Duration.ofMillis(3), now, now))
        .as("a shorter wait (a key's retry) stays as it is")
        .isEqualTo(Duration.ofMillis(3));
  }

  @Test
  void afterTheWindowTheIdleWaitIsThePollIntervalAgain() {
    waker.announce();
    long later = System.nanoTime() + Waker.FOLLOW_UP_WINDOW.toNanos() + 1;
    assertThat(waker.followingUp(later)).isFalse();
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), later, later))
        .isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void followUpPollsAreAPeriodCountedFromEachPassStart() {
    waker.announce();
    long passStart = System.nanoTime();
    long twoMsLater = passStart + 2_000_000;
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), passStart, twoMsLater))
        .as("a pass of 2 ms leaves 3 ms of the 5 ms period")
        .isEqualTo(Waker.FOLLOW_UP.minusMillis(2));
    long sevenMsLater = passStart + 7_000_000;
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), passStart, sevenMsLater))
        .as("a pass longer than the period: the next one starts at once")
        .isZero();
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), passStart, passStart + 60_000_000))
        .as("a pass that outlasted the window waits the poll interval")
        .isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aPassLongerThanTheFollowUpClearsTheWakeUpItWouldHaveWaitedFor() throws InterruptedException {
    waker.announce();
    waker.awaitIdle(Duration.ofSeconds(5), System.nanoTime() - 10_000_000);
    long before = System.nanoTime();
    waker.await(Duration.ofMillis(1));
    assertThat(System.nanoTime() - before).as("no wake-up left").isGreaterThanOrEqualTo(1_000_000);
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
