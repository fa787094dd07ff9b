package dev.outboxrelay.relay.cdc;

import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks published stream rows done (deletes them, or sets {@code published_at}) off the stream's
 * path. The processor logs each acknowledged batch's ids in the published log ({@code
 * <table>_cdc_published}, one row per batch) before the batch's position is stored; this marks the
 * logged rows and forgets their log row, batch by batch, on the relay's {@code -retention} thread.
 * So a row published from the stream costs the stream one INSERT per batch, not one statement per
 * row, and a crash loses nothing: the log is in the database, and whoever streams next retains it
 * before reading the table ({@link #flush}). Until then a published row still looks pending to a
 * reader of the table; the relay itself flushes first wherever it reads pending rows (the catch-up
 * fence, a key's drain). Thread-safe: one retention at a time.
 */
final class Retention {
  private static final Logger log = LoggerFactory.getLogger(Retention.class);
  private static final int BATCHES_PER_ROUND = 20;

  private final String name;
  private final CdcStore store;
  private final ReentrantLock lock = new ReentrantLock();
  private long failingSince;

  Retention(String name, CdcStore store) {
    this.name = name;
    this.store = store;
  }

  /** One round on the retention thread: what is logged now, a few batches per transaction round. */
  void run() {
    try {
      flush();
      if (failingSince != 0) {
        log.info("{} - retention of published rows works again", name);
        failingSince = 0;
      }
    } catch (SQLException e) {
      if (failingSince == 0) {
        failingSince = System.nanoTime();
        log.warn("{} - retention of published rows failed, retrying: {}", name, e.getMessage());
      }
    }
  }

  /** Marks every logged batch done before returning; any thread. */
  void flush() throws SQLException {
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
