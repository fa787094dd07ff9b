package dev.outboxrelay.relay.cdc;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a streaming engine has handed over nothing for longer than its heartbeats allow. The
 * relay asks Debezium for a heartbeat every {@code heartbeat.interval.ms} (1 s by default): on
 * PostgreSQL the connector sends one whenever the stream has nothing to read, on MySQL/MariaDB with
 * every binlog event, including the server's own heartbeat events on an idle binlog (every 0.8 ×
 * {@code connect.keep.alive.interval.ms}); an idle PostgreSQL connector at most once per {@code
 * poll.interval.ms}. So a batch, heartbeats included, reaches the relay at least that often while
 * its reader runs, and a silence of {@link #HEARTBEATS} such periods (at least {@link #FLOOR})
 * means the reader is stuck or its connection dead while the engine has not failed: Debezium 3.5's
 * JDBC schema history, for one, runs a refused statement again forever on the reader's thread
 * (debezium/dbz#2244). Time spent inside the relay's own handling of a batch (acknowledgements from
 * a slow broker, its position's write) is not silence: the engine waits for the relay then, and the
 * broker's failures are reported as such. Not watched when heartbeats are turned off ({@code
 * heartbeat.interval.ms} 0, or on MySQL/MariaDB {@code connect.keep.alive} false).
 */
final class EngineSilence {
  static final Duration FLOOR = Duration.ofSeconds(15);
  static final int HEARTBEATS = 15;

  private final Duration limit; // null: not watched
  private final AtomicInteger handling = new AtomicInteger(); // batches being handled
  private final AtomicLong handled = new AtomicLong(); // batches handled
  private volatile long batchEnded; // System.nanoTime() at the end of the last batch; 0 before

  /**
   * @param engine the settings the engine runs with ({@link DebeziumConfig#of}: the relay's merged
   *     with the user's)
   * @param binlog whether the source is MySQL/MariaDB
   */
  EngineSilence(Properties engine, boolean binlog) {
    this.limit = limit(engine, binlog);
  }

  static Duration limit(Properties engine, boolean binlog) {
    long heartbeat = millis(engine, "heartbeat.interval.ms", 0);
    if (heartbeat <= 0) {
      return null;
    }
    // An idle PostgreSQL connector sleeps a poll interval after five empty reads: one heartbeat
    // per poll interval at most.
    long period = Math.max(heartbeat, millis(engine, "poll.interval.ms", 500));
    if (binlog) {
      if (!Boolean.parseBoolean(engine.getProperty("connect.keep.alive", "true").trim())) {
        return null;
      }
      long keepAlive = millis(engine, "connect.keep.alive.interval.ms", 60_000);
      period = Math.max(period, keepAlive * 4 / 5);
    }
    Duration d = Duration.ofMillis(period).multipliedBy(HEARTBEATS);
    return d.compareTo(FLOOR) < 0 ? FLOOR : d;
  }

  /** A setting in ms; one that is not a number is Debezium's to refuse, naming it, at start. */
  private static long millis(Properties p, String key, long otherwise) {
    String v = p.getProperty(key);
    try {
      return v == null ? otherwise : Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  /** The engine handed over a batch; the relay handles it now. */
  void batchStarted() {
    handling.incrementAndGet();
  }

  void batchEnded() {
    batchEnded = System.nanoTime();
    handled.incrementAndGet();
    handling.decrementAndGet();
  }

  /** Batches handled so far; any thread. */
  long handled() {
    return handled.get();
  }

  /** The engine (re)starts: silent until its first batch, which {@code STARTING} reports. */
  void restarted() {
    batchEnded = 0;
  }

  /** How long the engine has been silent, if longer than it may be; any thread. */
  Optional<Duration> beyondLimit(long nowNanos) {
    if (limit == null) {
      return Optional.empty();
    }
    // A batch that began or ended between these reads is no silence.
    long before = handled.get();
    boolean inBatch = handling.get() > 0;
    long ended = batchEnded;
    if (inBatch || ended == 0 || handled.get() != before) {
      return Optional.empty();
    }
    Duration silent = Duration.ofNanos(nowNanos - ended);
    return silent.compareTo(limit) > 0 ? Optional.of(silent) : Optional.empty();
  }

  Optional<Duration> limit() {
    return Optional.ofNullable(limit);
  }
}
