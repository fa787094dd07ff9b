package dev.outboxrelay.relay.engine;

import java.sql.SQLException;
import java.time.Duration;

/**
 * Deletes published rows kept past the retention window, in bounded statements, at most once per
 * {@code min(30 s, window)}: the one purge of both relays. Each statement deletes at most {@link
 * #LIMIT} rows, so that none holds many row locks for long beside the application's writers. With
 * {@link Retention#deleteImmediately()} it does nothing (the mark deleted the row). One thread.
 */
public final class Purge {
  /** Rows per statement. */
  public static final int LIMIT = 1000;

  private static final Duration MAX_INTERVAL = Duration.ofSeconds(30);

  /** Deletes at most {@code limit} rows published longer ago than {@code window}. */
  @FunctionalInterface
  public interface Statement {
    int delete(Duration window, int limit) throws SQLException;
  }

  private final Duration window; // null: rows are not kept
  private final Statement statement;
  private final Ticker ticker;
  private long nextNanos;

  public Purge(Retention retention, Statement statement, Ticker ticker) {
    this.window = retention.window().orElse(null);
    this.statement = statement;
    this.ticker = ticker;
    this.nextNanos = ticker.read();
  }

  /** Purges if a purge is due; returns the rows deleted. */
  public int runIfDue() throws SQLException {
    long now = ticker.read();
    if (window == null || now - nextNanos < 0) {
      return 0;
    }
    int total = 0;
    int deleted;
    do {
      deleted = statement.delete(window, LIMIT);
      total += deleted;
    } while (deleted == LIMIT);
    nextNanos = now + Math.min(MAX_INTERVAL.toNanos(), window.toNanos());
    return total;
  }
}
