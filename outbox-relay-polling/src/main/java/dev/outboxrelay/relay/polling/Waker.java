package dev.outboxrelay.relay.polling;

import java.time.Duration;

/** Lets the idle worker sleep until a poll interval passes or new rows are announced. */
final class Waker {
  private boolean woken;

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

  synchronized void wake() {
    woken = true;
    notifyAll();
  }
}
