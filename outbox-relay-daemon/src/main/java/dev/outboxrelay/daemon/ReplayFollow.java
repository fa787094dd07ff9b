package dev.outboxrelay.daemon;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * {@code replay --follow}: after rows were set pending again, prints every 2 s how many of them the
 * running relay has published again, until none of the replay's selection is pending. Gives up when
 * nothing moved for a minute (no relay is running for this table). Counted from the rows of the
 * replay's selection still pending ({@link ReplayedPending}), not from the table's backlog, so
 * other keys' backlog draining meanwhile cannot make it finish early; rows of the selection written
 * meanwhile make the count lag; it never runs ahead.
 */
final class ReplayFollow {
  static final Duration EVERY = Duration.ofSeconds(2);
  static final Duration STALL = Duration.ofMinutes(1);

  private ReplayFollow() {}

  /** True when every replayed row was published again, false when it gave up. */
  static boolean follow(LongSupplier stillPending, String relay, int replayed, PrintWriter out)
      throws InterruptedException {
    long lastMove = System.nanoTime();
    long lastPending = Long.MAX_VALUE;
    while (true) {
      long pending = stillPending.getAsLong();
      long done = Math.max(0, replayed - pending);
      out.printf(
          "replay %s: %d of %d published again (%d still pending)%n",
          relay, done, replayed, pending);
      out.flush();
      if (pending == 0) {
        return true;
      }
      if (pending < lastPending) {
        lastMove = System.nanoTime();
        lastPending = pending;
      } else if (System.nanoTime() - lastMove > STALL.toNanos()) {
        out.printf(
            "replay %s: nothing published for %d s; is a relay running for this table?%n",
            relay, STALL.toSeconds());
        return false;
      }
      Thread.sleep(EVERY.toMillis()); // a progress interval, not a wait for an outcome
    }
  }
}
