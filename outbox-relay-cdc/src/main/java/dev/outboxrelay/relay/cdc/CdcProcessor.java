package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.internal.PendingRow;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles the engine's batches: outbox INSERTs are published; the batch's records are marked
 * processed (so the stored position advances) only after every message was acknowledged and marked,
 * held for a key (its rows stay pending in the table), or parked. The table is the source of truth:
 * at start, and whenever a key is released, pending rows are drained from it in order.
 */
final class CdcProcessor implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {
  private static final Logger log = LoggerFactory.getLogger(CdcProcessor.class);
  private static final int DRAIN_BATCH = 500;

  private final CdcRelayConfig config;
  private final CdcStore store;
  private final OutboxEvents events;
  private final KeyHolds holds;
  private final Publishing publishing;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile boolean running = true;
  private boolean caughtUp;
  private long nextPurgeNanos;

  CdcProcessor(CdcRelayConfig config, CdcStore store) {
    this.config = config;
    this.store = store;
    this.events = new OutboxEvents(config.table());
    this.holds = new KeyHolds(config.backoff());
    this.publishing = new Publishing(config, store, holds, () -> running);
  }

  @Override
  public void handleBatch(
      List<RecordChangeEvent<SourceRecord>> records,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    lock.lockInterruptibly();
    try {
      catchUpOnce();
      List<PendingRow> rows = new ArrayList<>();
      for (RecordChangeEvent<SourceRecord> r : records) {
        Struct row = events.insertedRow(r.record());
        if (row != null) {
          rows.add(toRow(row));
        }
      }
      publishUntilDone(rows);
      for (RecordChangeEvent<SourceRecord> r : records) {
        committer.markProcessed(r);
      }
      committer.markBatchFinished();
    } finally {
      lock.unlock();
    }
  }

  private PendingRow toRow(Struct row) {
    String key = events.aggregateId(row);
    Object bucket = row.schema().field("bucket") == null ? null : row.get("bucket");
    int b = bucket instanceof Number n ? n.intValue() : 0;
    try {
      return new PendingRow(events.id(row), key, b, events.message(row), null);
    } catch (RuntimeException e) {
      return new PendingRow(events.id(row), key, b, null, "malformed row: " + e.getMessage());
    }
  }

  /** Publishes the stream rows still pending; on an outage retries with backoff, never skipping. */
  private void publishUntilDone(List<PendingRow> rows) throws InterruptedException {
    int attempt = 0;
    while (!rows.isEmpty()) {
      try {
        Set<UUID> pending = store.stillPending(rows.stream().map(PendingRow::id).toList());
        rows = rows.stream().filter(r -> pending.contains(r.id())).toList();
        if (publishing.publish(rows) == Publishing.Outcome.PROGRESS) {
          return;
        }
      } catch (SQLException e) {
        log.warn("{} - database error, retrying: {}", config.name(), e.getMessage());
      }
      pause(Duration.ofMillis(config.backoff().apply(++attempt)));
    }
  }

  /** Catches up pending rows and drains released keys; run at start and periodically. */
  void maintain() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      if (!caughtUp) {
        return; // the first batch catches up, once the stream's position is established
      }
      holds.parked(store.parkedKeys());
      for (String key : holds.due()) {
        drain(key);
      }
      purge();
    } catch (SQLException e) {
      log.warn("{} - maintenance failed, retrying: {}", config.name(), e.getMessage());
    } finally {
      lock.unlock();
    }
  }

  private void catchUpOnce() throws InterruptedException {
    if (caughtUp) {
      return;
    }
    int attempt = 0;
    long upTo = -1;
    while (running) {
      try {
        // Rows committed after this point reach us through the stream: catch up to here only.
        upTo = upTo < 0 ? store.maxSeq() : upTo;
        holds.parked(store.parkedKeys());
        List<PendingRow> rows = store.pendingRows(null, holds.heldKeys(1000), upTo, DRAIN_BATCH);
        if (rows.isEmpty()) {
          caughtUp = true;
          log.info("{} - caught up with the table", config.name());
          return;
        }
        if (publishing.publish(rows) == Publishing.Outcome.PROGRESS) {
          attempt = 0;
          continue;
        }
      } catch (SQLException e) {
        log.warn("{} - catch-up failed, retrying: {}", config.name(), e.getMessage());
      }
      pause(Duration.ofMillis(config.backoff().apply(++attempt)));
    }
  }

  private void drain(String key) throws SQLException, InterruptedException {
    holds.draining(key);
    while (running) {
      List<PendingRow> rows = store.pendingRows(key, List.of(), Long.MAX_VALUE, DRAIN_BATCH);
      if (rows.isEmpty()) {
        holds.drained(key);
        return;
      }
      if (publishing.publish(rows) == Publishing.Outcome.OUTAGE) {
        holds.block(key);
      }
      if (holds.isHeld(key) || holds.isParked(key)) {
        holds.drainFailed();
        return;
      }
    }
    holds.drainFailed();
  }

  private void purge() throws SQLException {
    if (!config.keepRows() || System.nanoTime() - nextPurgeNanos < 0) {
      return;
    }
    while (store.purge(config.keepPublishedFor(), 1000) == 1000) {
      // bounded batches
    }
    nextPurgeNanos =
        System.nanoTime()
            + Math.min(Duration.ofSeconds(30).toNanos(), config.keepPublishedFor().toNanos());
  }

  void stop() {
    running = false;
  }

  /** A (re)started engine streams from the stored position: catch up with the table again. */
  void restarted() {
    lock.lock();
    try {
      caughtUp = false;
    } finally {
      lock.unlock();
    }
  }

  private void pause(Duration d) throws InterruptedException {
    if (!running) {
      throw new InterruptedException(config.name() + " is stopping");
    }
    Thread.sleep(d.toMillis());
  }
}
