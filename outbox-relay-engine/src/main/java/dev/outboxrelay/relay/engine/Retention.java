package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.OutboxConfigException;
import java.time.Duration;
import java.util.Optional;

/** What happens to a row once the broker acknowledged it. Immutable. */
public final class Retention {
  private final Duration keepFor;

  private Retention(Duration keepFor) {
    this.keepFor = keepFor;
  }

  /** Delete the row in the statement that marks it done (the default). */
  public static Retention deleteImmediately() {
    return new Retention(null);
  }

  /**
   * Keep published rows (with {@code published_at} set) for a replay window, then delete them in
   * bounded batches.
   */
  public static Retention keepFor(Duration window) {
    if (window == null || window.isNegative() || window.isZero()) {
      throw new OutboxConfigException("retention", window, "must be a positive duration");
    }
    return new Retention(window);
  }

  /** The replay window, when rows are kept. */
  public Optional<Duration> window() {
    return Optional.ofNullable(keepFor);
  }

  /** Whether published rows are kept (a {@link #keepFor} window), rather than deleted. */
  public boolean keepsRows() {
    return keepFor != null;
  }

  @Override
  public String toString() {
    return keepFor == null ? "delete immediately" : "keep for " + keepFor;
  }
}
