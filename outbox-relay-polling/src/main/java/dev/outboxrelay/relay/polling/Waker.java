package dev.outboxrelay.relay.polling;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets the idle worker sleep until a poll interval passes or new rows are announced.
 *
 * <p>PostgreSQL's trigger notifies at most about once per 20 ms (see {@code
 * V6__notify_at_commit.sql} in outbox-writer): a transaction that commits just after a notifying
 * one, in the same 20 ms, does not notify, and its row may become visible only after the poll that
 * notification caused. So for {@link #FOLLOW_UP_WINDOW} after an announcement the relay polls every
 * {@link #FOLLOW_UP}, counted from the start of each pass (its claim, and the publish of what it
 * found): such a row is found by a follow-up poll, not after the whole poll interval, and a pass
 * that takes a few milliseconds does not stretch the period by as much.
 */
final class Waker {
  /** The longest idle wait shortly after an announcement. */
  static final Duration FOLLOW_UP = Duration.ofMillis(5);

  /** How long after an announcement idle waits are capped at {@link #FOLLOW_UP}. */
  static final Duration FOLLOW_UP_WINDOW = Duration.ofMillis(50);

  // A lock and a condition rather than a monitor: Object.wait rounds a fraction of a millisecond
  // up to a whole one, and a follow-up period of 5 ms is meant to the tenth of one.
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wakeUp = lock.newCondition();
  private boolean woken;
  private boolean announced;
  private long announcedAt;

  /** Waits up to {@code timeout} or until {@link #wake()}; clears the wake-up. */
  void await(Duration timeout) throws InterruptedException {
    lock.lock();
    try {
      long left = timeout.toNanos();
      while (!woken && left > 0) {
        left = wakeUp.awaitNanos(left);
      }
      woken = false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The idle wait after a pass that began at {@code passStartNanos}: as {@link #await}, for {@link
   * #idleTimeout}; if that is zero, only clears a wake-up (the next pass polls at once and sees
   * what it announced).
   */
  void awaitIdle(Duration timeout, long passStartNanos) throws InterruptedException {
    lock.lock();
    try {
      Duration wait = idleTimeout(timeout, passStartNanos, System.nanoTime());
      if (wait.isZero()) {
        woken = false;
      } else {
        await(wait);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The idle wait at {@code nowNanos} after a pass that began at {@code passStartNanos}: {@code
   * timeout}, or while a follow-up is due what is left of {@link #FOLLOW_UP} since the pass began
   * (zero if the pass took longer). A {@code timeout} shorter than {@link #FOLLOW_UP} (a key's
   * retry) stays as it is.
   */
  Duration idleTimeout(Duration timeout, long passStartNanos, long nowNanos) {
    if (!followingUp(nowNanos) || timeout.compareTo(FOLLOW_UP) <= 0) {
      return timeout;
    }
    return Duration.ofNanos(Math.max(0, FOLLOW_UP.toNanos() - (nowNanos - passStartNanos)));
  }

  /** Whether {@code nowNanos} is within {@link #FOLLOW_UP_WINDOW} of the last announcement. */
  boolean followingUp(long nowNanos) {
    lock.lock();
    try {
      return announced && nowNanos - announcedAt < FOLLOW_UP_WINDOW.toNanos();
    } finally {
      lock.unlock();
    }
  }

  void wake() {
    lock.lock();
    try {
      woken = true;
      wakeUp.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The database announced new rows (a NOTIFY): wake now, and poll again soon after. */
  void announce() {
    lock.lock();
    try {
      announced = true;
      announcedAt = System.nanoTime();
      wake();
    } finally {
      lock.unlock();
    }
  }
}
