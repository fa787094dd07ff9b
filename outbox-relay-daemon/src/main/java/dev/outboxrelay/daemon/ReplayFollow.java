package dev.outboxrelay.daemon;

import dev.outboxrelay.relay.polling.OutboxAdmin;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * {@code replay --follow}: after rows were set pending again, prints every 2 s how many of them the
 * running relay has published again, until the table's backlog is back where it was before the
 * replay. Gives up when nothing moved for a minute (no relay is running for this table). Counted
 * from the backlog, so rows written meanwhile make the count lag; it never runs ahead.
 */
final class ReplayFollow {
  static final Duration EVERY = Duration.ofSeconds(2);
  static final Duration STALL = Duration.ofMinutes(1);

  private ReplayFollow() {}

  /** True when every replayed row was published again, false when it gave up. */
  static boolean follow(OutboxAdmin admin, String relay, long before, int replayed, PrintWriter out)
      throws InterruptedException {
    long lastMove = System.nanoTime();
    long lastBacklog = Long.MAX_VALUE;
    while (true) {
      long backlog = admin.pendingCount();
      long done = Math.max(0, Math.min(replayed, replayed - (backlog - before)));
      out.printf(
          "replay %s: %d of %d published again (backlog %d)%n", relay, done, replayed, backlog);
      out.flush();
      if (done >= replayed) {
        return true;
      }
      if (backlog < lastBacklog) {
        lastMove = System.nanoTime();
        lastBacklog = backlog;
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
