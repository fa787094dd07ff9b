package dev.outboxrelay.relay.polling;

import java.time.Duration;

/**
 * Lets the idle worker sleep until a poll interval passes or new rows are announced.
 *
 * <p>PostgreSQL's writer notifies at most once per 20 ms (see {@code OutboxBuilder.wakeUpInterval}
 * in outbox-writer): a transaction that saves just after a notifying one, in the same 20 ms, does
 * not notify, and its row may become visible only after the poll that notification caused. So for
 * {@link #FOLLOW_UP_WINDOW} after an announcement an idle wait lasts at most {@link #FOLLOW_UP}:
 * such a row is found by a follow-up poll, not after the whole poll interval. The same follow-ups
 * come after any pass that published rows ({@link #followUp}): on a live stream without NOTIFY
 * (MySQL/MariaDB, or NOTIFY off) the next rows are found within 5 ms, not half a poll interval
 * later on average. After the window an idle wait lasts as long as the quiet so far (up to the poll
 * interval): waits double, so a stream that pauses for a while (a writer's stall) has its next row
 * found within about its pause again, for a few more reads.
 */
final class Waker {
  /** The longest idle wait shortly after an announcement. */
  static final Duration FOLLOW_UP = Duration.ofMillis(5);

  /** How long after an announcement idle waits are capped at {@link #FOLLOW_UP}. */
  static final Duration FOLLOW_UP_WINDOW = Duration.ofMillis(50);

  private boolean woken;
  private boolean announced;
  private long announcedAt;

  /** Waits up to {@code timeout} or until {@link #wake()}; clears the wake-up. */
  synchronized void await(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!woken) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      wait(Math.max(1, left / 1_000_000), (int) (left % 1_000_000));
    }
    woken = false;
  }

  /**
   * The idle wait at {@code nowNanos}: {@code timeout}, capped at {@link #FOLLOW_UP} within the
   * window after the last announcement or follow-up, and after it at the quiet since then.
   */
  synchronized Duration idleTimeout(Duration timeout, long nowNanos) {
    if (!announced) {
      return timeout;
    }
    long quiet = nowNanos - announcedAt;
    Duration cap = quiet < FOLLOW_UP_WINDOW.toNanos() ? FOLLOW_UP : Duration.ofNanos(quiet);
    return timeout.compareTo(cap) > 0 ? cap : timeout;
  }

  synchronized void wake() {
    woken = true;
    notifyAll();
  }

  /**
   * A pass published rows: more are probably coming (a live stream), so poll again soon, for {@link
   * #FOLLOW_UP_WINDOW} from now, without waking now.
   */
  synchronized void followUp() {
    announced = true;
    announcedAt = System.nanoTime();
  }

  /** The database announced new rows (a NOTIFY): wake now, and poll again soon after. */
  synchronized void announce() {
    announced = true;
    announcedAt = System.nanoTime();
    wake();
  }
}
