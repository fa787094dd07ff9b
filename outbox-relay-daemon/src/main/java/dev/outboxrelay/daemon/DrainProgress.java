package dev.outboxrelay.daemon;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One INFO line per relay every 5 s while a backlog exists: backlog, publish rate, oldest pending,
 * parked keys; then one line when it is drained. A backlog that does not move (only parked keys
 * left, or a broker outage the WARNs already report) is repeated once a minute instead, so that a
 * parked key does not fill the log. Called from the sampler thread only.
 */
final class DrainProgress {
  private static final Logger log = LoggerFactory.getLogger(DrainProgress.class);
  private static final long MOVING_EVERY = Duration.ofSeconds(5).toNanos();
  private static final long STALLED_EVERY = Duration.ofMinutes(1).toNanos();

  private final String relay;
  private boolean draining;
  private long lastLog;
  private long lastBacklog;
  private double lastPublished;

  DrainProgress(String relay) {
    this.relay = relay;
  }

  void sampled(long backlog, double published, Duration oldestPending, int parkedKeys) {
    long now = System.nanoTime();
    if (backlog == 0) {
      if (draining) {
        log.info("Relay {} - backlog drained", relay);
      }
      draining = false;
      return;
    }
    if (!draining) { // the first sample of a backlog is the baseline for the rate
      draining = true;
      remember(now, backlog, published);
      return;
    }
    long elapsed = now - lastLog;
    boolean moving = published > lastPublished || backlog != lastBacklog;
    if (elapsed < (moving ? MOVING_EVERY : STALLED_EVERY)) {
      return;
    }
    log.info(
        "Relay {} - draining: backlog {}, {} msg/s, oldest pending {}, parked keys {}",
        relay,
        backlog,
        Math.round((published - lastPublished) * 1e9 / elapsed),
        StatusCommand.human(oldestPending),
        parkedKeys);
    remember(now, backlog, published);
  }

  private void remember(long now, long backlog, double published) {
    lastLog = now;
    lastBacklog = backlog;
    lastPublished = published;
  }
}
