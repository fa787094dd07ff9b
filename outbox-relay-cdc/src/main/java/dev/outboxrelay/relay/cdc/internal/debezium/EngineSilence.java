package dev.outboxrelay.relay.cdc.internal.debezium;

import dev.outboxrelay.relay.engine.Ticker;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Invariant: a streaming engine that has handed over nothing, heartbeats included, for {@link
 * #HEARTBEATS} heartbeat periods (at least {@link #FLOOR}) is reported as silent, and an engine
 * that hands over batches, or waits for the relay's own handling of one, never is.
 *
 * <p>Debezium behaviour it answers: a reader can stop without failing the engine, so the engine's
 * completion callback never fires. Debezium 3.5's {@code JdbcSchemaHistory}, for one, runs a
 * refused statement again forever on the reader's thread (debezium/dbz#2244); a dead connection can
 * hang a reader as well. The relay asks for a heartbeat every {@code heartbeat.interval.ms}: the
 * PostgreSQL connector sends one whenever the stream has nothing to read (an idle connector at most
 * once per {@code poll.interval.ms}); the MySQL/MariaDB connector with every binlog event,
 * including the server's own heartbeat events on an idle binlog (every 0.8 × {@code
 * connect.keep.alive.interval.ms}). So while the reader runs, a batch reaches the relay at least
 * once per such period. Time inside the relay's handling of a batch (acknowledgements from a slow
 * broker, its position's write) is not silence: the engine waits for the relay then, and the
 * broker's failures are reported as such. Not watched when heartbeats are off ({@code
 * heartbeat.interval.ms} 0, or on MySQL/MariaDB {@code connect.keep.alive} false). Thread-safe.
 */
public final class EngineSilence {
  static final Duration FLOOR = Duration.ofSeconds(15);
  static final int HEARTBEATS = 15;

  private final Duration limit; // null: not watched
  private final AtomicInteger handling = new AtomicInteger(); // batches being handled
  private final AtomicLong handled = new AtomicLong(); // batches handled
  private final Ticker ticker;
  private volatile boolean ended; // a batch ended since the (re)start
  private volatile long batchEnded; // the ticker at the end of the last batch

  /**
   * @param engine the settings the engine runs with ({@link EngineProperties#of}: the relay's
   *     merged with the user's)
   * @param binlog whether the source is MySQL/MariaDB
   * @param ticker the relay's clock for elapsed time
   */
  public EngineSilence(Properties engine, boolean binlog, Ticker ticker) {
    this.limit = limit(engine, binlog);
    this.ticker = ticker;
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

  /** The engine handed over a batch, which the relay handles from here. */
  public void batchStarted() {
    handling.incrementAndGet();
  }

  /** The relay is done with the batch: silence counts from here. */
  public void batchEnded() {
    batchEnded = ticker.read();
    ended = true;
    handled.incrementAndGet();
    handling.decrementAndGet();
  }

  /** Batches handled so far; any thread. */
  public long handled() {
    return handled.get();
  }

  /** The engine (re)starts: silent until its first batch, which {@code STARTING} reports. */
  public void restarted() {
    ended = false;
  }

  /** How long the engine has been silent, if longer than it may be; any thread. */
  public Optional<Duration> beyondLimit() {
    if (limit == null) {
      return Optional.empty();
    }
    // A batch that began or ended between these reads is no silence.
    long before = handled.get();
    boolean inBatch = handling.get() > 0;
    long end = batchEnded;
    if (inBatch || !ended || handled.get() != before) {
      return Optional.empty();
    }
    Duration silent = Duration.ofNanos(ticker.read() - end);
    return silent.compareTo(limit) > 0 ? Optional.of(silent) : Optional.empty();
  }

  public Optional<Duration> limit() {
    return Optional.ofNullable(limit);
  }
}
