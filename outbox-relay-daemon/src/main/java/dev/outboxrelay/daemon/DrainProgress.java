package dev.outboxrelay.daemon;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The progress line a relay logs (INFO, one line) while a backlog exists: every 5 s while it moves,
 * pending count, publish rate, oldest pending, parked keys; then one line when it is drained. A
 * backlog that does not move (only parked keys left, or a broker outage the WARNs already report)
 * is repeated once a minute, so that a parked key does not fill the log. Fed from the sampler
 * thread only.
 */
final class DrainProgress {
  static final Duration MOVING_EVERY = Duration.ofSeconds(5);
  static final Duration STALLED_EVERY = Duration.ofMinutes(1);

  private final String relay;
  private final LongSupplier nanoTime;
  private boolean draining;
  private boolean stalledLogged;
  private long lastLog;
  private double lastPublished;

  DrainProgress(String relay, LongSupplier nanoTime) {
    this.relay = relay;
    this.nanoTime = nanoTime;
  }

  /** The line to log for this sample, if any. */
  Optional<String> sampled(long backlog, double published, Duration oldestPending, int parked) {
    long now = nanoTime.getAsLong();
    if (backlog == 0) {
      boolean was = draining;
      draining = false;
      return was ? Optional.of("Relay " + relay + " - backlog drained") : Optional.empty();
    }
    if (!draining) { // the first sample of a backlog is the baseline for the rate
      draining = true;
      stalledLogged = false;
      remember(now, published);
      return Optional.empty();
    }
    long elapsed = now - lastLog;
    boolean stalled = published <= lastPublished;
    Duration every = stalled && stalledLogged ? STALLED_EVERY : MOVING_EVERY;
    if (elapsed < every.toNanos()) {
      return Optional.empty();
    }
    String line =
        String.format(
            "Relay %s - backlog: %d pending, %d msg/s published, oldest pending %s, parked keys %d",
            relay,
            backlog,
            Math.round((published - lastPublished) * 1e9 / elapsed),
            StatusCommand.human(oldestPending),
            parked);
    stalledLogged = stalled;
    remember(now, published);
    return Optional.of(line);
  }

  private void remember(long now, double published) {
    lastLog = now;
    lastPublished = published;
  }
}
