package dev.outboxrelay.dedup.internal;

import dev.outboxrelay.core.OutboxException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** Exponential backoff with jitter, bounded by a maximum. Immutable, thread-safe. */
public record Backoff(Duration initial, Duration max) {

  /** The delay before retry number {@code attempt} (1 = first retry): 50–100 % of the cap. */
  public Duration delay(int attempt) {
    long cap = initial.toNanos() << Math.min(Math.max(attempt - 1, 0), 20);
    cap = Math.min(cap <= 0 ? Long.MAX_VALUE : cap, max.toNanos());
    long half = cap / 2;
    return Duration.ofNanos(half + ThreadLocalRandom.current().nextLong(half + 1));
  }

  /**
   * Sleeps for the delay of an attempt.
   *
   * @throws OutboxException if interrupted; the interrupt flag is restored first
   */
  public void sleep(int attempt) {
    sleep(delay(attempt));
  }

  /** Sleeps; on interrupt restores the flag and throws {@link OutboxException}. */
  public static void sleep(Duration delay) {
    try {
      TimeUnit.NANOSECONDS.sleep(delay.toNanos());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OutboxException("Interrupted while backing off", e);
    }
  }
}
