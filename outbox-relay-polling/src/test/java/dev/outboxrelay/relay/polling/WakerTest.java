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

  /** After the window, waits last as long as the quiet so far: they double up to the interval. */
  @Test
  void afterTheWindowIdleWaitsGrowWithTheQuietUpToThePollInterval() {
    waker.announce();
    long at = System.nanoTime();
    long second = Duration.ofSeconds(1).toNanos();
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), at + second))
        .isBetween(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), at + 10 * second))
        .isEqualTo(Duration.ofSeconds(5));
  }

  /** A pass that published rows asks for follow-ups (a live stream) but does not wake anyone. */
  @Test
  void aFollowUpShortensIdleWaitsWithoutWaking() throws InterruptedException {
    waker.followUp();
    assertThat(waker.idleTimeout(Duration.ofSeconds(5), System.nanoTime()))
        .isEqualTo(Waker.FOLLOW_UP);
    long before = System.nanoTime();
    waker.await(Duration.ofMillis(20));
    assertThat(System.nanoTime() - before).as("not woken").isGreaterThanOrEqualTo(20_000_000);
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
