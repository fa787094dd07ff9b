package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import dev.outboxrelay.relay.engine.Ticker;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks published stream rows done (deletes them, or sets {@code published_at}) off the stream's
 * path. The processor logs each acknowledged batch's ids in the published log ({@code
 * <table>_cdc_published}, one row per batch) in the transaction that stores the batch's position
 * ({@link PublishedLog}; in the start-up catch-up, before any position is stored, in a transaction
 * of its own); this marks the logged rows and forgets their log row, batch by batch, on the relay's
 * {@code -retention} thread. So a row published from the stream costs the stream no statement of
 * its own, and a crash loses nothing: the log is in the database, and whoever streams next retains
 * it before reading the table ({@link #flush}). Until then a published row still looks pending to a
 * reader of the table; the relay itself flushes first wherever it reads pending rows (the catch-up
 * fence, a key's drain). Thread-safe: one retention at a time.
 *
 * <p>While the stream is behind or busy (its newest change more than {@link #BEHIND} old, or at
 * least {@link #BUSY_ROWS_PER_SECOND} rows/s, batches still coming: a backlog after downtime, a
 * burst), the retention thread yields to it for up to {@link #MAX_YIELD}: its deletes would take
 * the database's and, on MySQL/MariaDB, the binlog reader's time from the stream (each delete is a
 * row image Debezium reads and skips). So a catch-up runs at the stream's speed and the published
 * rows are deleted behind it; a longer lag is retained as before (a sustained stream that busy gets
 * its retention beside it after those 10 s). What it costs: for that while, published rows stay in
 * the table (the backlog gauge counts them) and a restart or a stop retains them before it goes on
 * ({@link #flush}).
 */
final class LoggedMarks {
  private static final Logger log = LoggerFactory.getLogger(LoggedMarks.class);
  private static final int BATCHES_PER_ROUND = 20;
  static final Duration BEHIND = Duration.ofSeconds(2);
  static final Duration MAX_YIELD = Duration.ofSeconds(10);
  static final int BUSY_ROWS_PER_SECOND = 5_000;
  private static final Duration RATE_WINDOW = Duration.ofMillis(500);

  /** The shortest span of a window in progress whose rate counts before the window ends. */
  private static final Duration RATE_EARLY = Duration.ofMillis(50);

  // Written by the processor thread, read by the retention thread.
  private volatile long lastBatchNanos;
  private volatile boolean batchSeen; // lastBatchNanos is set
  private volatile long lagMillis;
  private volatile double rowsPerSecond;
  private long windowStart; // processor thread only
  private long windowRows; // processor thread only
  private long lastRowsNanos; // processor thread only
  private long yieldingSince; // retention thread only
  private boolean yielding; // retention thread only

  private final String name;
  private final CdcStore store;
  private final PublishedLog published;
  private final ReentrantLock lock = new ReentrantLock();
  private boolean failing; // retention thread only

  private final Ticker ticker;
  private final Clock clock;

  /** {@code clock}: the wall clock a change's source time is compared with, to tell the lag. */
  LoggedMarks(String name, CdcStore store, PublishedLog published, Ticker ticker, Clock clock) {
    this.name = name;
    this.store = store;
    this.published = published;
    this.ticker = ticker;
    this.clock = clock;
    this.windowStart = ticker.read();
  }

  /**
   * The processor handled a batch of {@code rows} outbox rows whose newest change happened at
   * {@code changeMillis} (the source's clock; -1 if the batch told none). Processor thread.
   */
  void streamed(long changeMillis, int rows) {
    long now = ticker.read();
    if (changeMillis >= 0) {
      lagMillis = clock.millis() - changeMillis;
      lastBatchNanos = now;
      batchSeen = true;
    }
    if (rows > 0) {
      if (now - lastRowsNanos > RATE_WINDOW.toNanos()) {
        // The first rows after a quiet spell start the window: averaged with the quiet, a burst's
        // first window read as slow, and retention deleted beside it for that half second.
        windowStart = now;
        windowRows = 0;
        rowsPerSecond = 0; // the quiet spell was not busy
      }
      lastRowsNanos = now;
    }
    windowRows += rows;
    long span = now - windowStart;
    if (span >= RATE_WINDOW.toNanos()) {
      rowsPerSecond = windowRows * 1e9 / span;
      windowStart = now;
      windowRows = 0;
    } else if (span >= RATE_EARLY.toNanos()) {
      // A window in progress may only raise the rate: a burst is busy from its first batches,
      // and only a whole window says the stream slowed down.
      rowsPerSecond = Math.max(rowsPerSecond, windowRows * 1e9 / span);
    }
  }

  /**
   * Whether the stream is behind or busy and has had the right of way for less than MAX_YIELD.
   * Behind: its newest change older than BEHIND (on MySQL/MariaDB the source clock counts whole
   * seconds). Busy: at least BUSY rows/s over the last window; a burst of writes gets the database
   * to itself, its retention follows it.
   */
  boolean yieldToStream() {
    long now = ticker.read();
    boolean streaming = batchSeen && now - lastBatchNanos < BEHIND.toNanos();
    boolean behind =
        streaming && (lagMillis > BEHIND.toMillis() || rowsPerSecond >= BUSY_ROWS_PER_SECOND);
    if (!behind) {
      yielding = false;
      return false;
    }
    if (!yielding) {
      yielding = true;
      yieldingSince = now;
    }
    return now - yieldingSince < MAX_YIELD.toNanos();
  }

  /** One round on the retention thread: what is logged now, a few batches per transaction round. */
  void run() {
    if (yieldToStream()) {
      return;
    }
    try {
      retainLogged(); // not the batches waiting for their position: they go in with it
      if (failing) {
        log.info("{} - retention of published rows works again", name);
        failing = false;
      }
    } catch (SQLException e) {
      if (!failing) {
        failing = true;
        log.warn("{} - retention of published rows failed, retrying: {}", name, e.getMessage());
      }
    }
  }

  /**
   * Marks every published batch done before returning, those not yet in the log table (waiting for
   * the next stored position) included; any thread.
   */
  void flush() throws SQLException {
    lock.lock();
    try {
      if (!published.isEmpty()) {
        store.writeLog(published);
      }
      retainLogged();
    } finally {
      lock.unlock();
    }
  }

  /** Marks every batch in the log table done. */
  private void retainLogged() throws SQLException {
    lock.lock();
    try {
      while (store.retain(BATCHES_PER_ROUND) == BATCHES_PER_ROUND) {
        // more logged: go on
      }
    } finally {
      lock.unlock();
    }
  }
}
