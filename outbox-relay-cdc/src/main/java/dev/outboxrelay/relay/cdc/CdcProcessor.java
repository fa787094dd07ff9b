package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.cdc.internal.debezium.EngineSilence;
import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import dev.outboxrelay.relay.cdc.internal.debezium.StopDrain;
import dev.outboxrelay.relay.engine.KeyBackoffs;
import dev.outboxrelay.relay.engine.KeyDrains;
import dev.outboxrelay.relay.engine.KeyHolds;
import dev.outboxrelay.relay.engine.Purge;
import dev.outboxrelay.relay.engine.Retry;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CDC row source: handles the engine's batches with ack-before-advance. Outbox INSERTs are
 * published ({@link RoundPublisher}); the batch's records are marked processed (so the stored
 * position advances, {@link PositionWrites}) only after every message was acknowledged and logged,
 * held for a key (its rows stay pending in the table), or parked. The table is the source of truth
 * for what the stream skipped: at each (re)start the rows the stream will not carry are caught up
 * first ({@link CatchUpDriver}), and a released key is drained from it in order ({@link
 * KeyDrains}). The stream's batches, the drains and the maintenance take turns under one lock.
 */
final class CdcProcessor implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {
  private static final Logger log = LoggerFactory.getLogger(CdcProcessor.class);

  private final CdcRelayConfig config;
  private final CdcStore store;
  private final OutboxEvents events;
  private final KeyHolds holds;
  private final LoggedMarks marks;
  private final Retry retry;
  private final Purge purge;
  private final PublishedLog published;
  private final PositionWrites writes;
  private final RoundPublisher rounds;
  private final KeyDrains drains;
  private final Properties engineProperties;
  private final StopDrain stopDrain;
  private final EngineSilence silence;
  private final ReentrantLock lock = new ReentrantLock();
  private final CountDownLatch established = new CountDownLatch(1);
  private volatile boolean running = true;
  private volatile boolean batchSinceStart; // the engine (re)started runs: it delivered a batch
  private CatchUpDriver catchUp; // null once this engine run caught up
  private volatile Runnable onRunning = () -> {};

  /** {@code debezium}: the engine's effective settings ({@link DebeziumConfig#of}). */
  CdcProcessor(CdcRelayConfig config, CdcStore store, Properties debezium) {
    this.config = config;
    this.store = store;
    this.events = new OutboxEvents(config.table());
    this.holds = new KeyHolds(new KeyBackoffs(config.backoff(), config.ticker()));
    this.published = store.newPublishedLog();
    this.marks =
        new LoggedMarks(config.name(), store, published, config.ticker(), Clock.systemUTC());
    this.retry = new Retry(config.name(), config.backoff(), this::pause);
    this.purge = new Purge(config.retention(), store::purge, config.ticker());
    this.writes = new PositionWrites(config.name());
    Publishing publishing =
        new Publishing(config, store, published, holds, writes, marks, () -> running);
    this.rounds = new RoundPublisher(config, store, publishing, published, writes, retry);
    this.drains = new KeyDrains(config.batchSize(), holds, publishing, () -> running);
    this.stopDrain = new StopDrain(debezium);
    this.silence = new EngineSilence(debezium, config.binlog(), config.ticker());
    this.catchUp = newCatchUp();
    this.engineProperties = new Properties();
    engineProperties.putAll(debezium);
    engineProperties.setProperty(PublishedLog.TOKEN_PROPERTY, published.token());
  }

  private CatchUpDriver newCatchUp() {
    return new CatchUpDriver(
        config, store, events, holds, marks, writes, rounds, retry, this::fenced);
  }

  private void fenced() {
    onRunning.run(); // before start() can return and read the relay's state
    established.countDown();
  }

  /**
   * The engine's settings: {@code debezium} as given, and the token by which the offset store finds
   * this processor's published log.
   */
  Properties engineProperties() {
    return engineProperties;
  }

  /** The relay stopped: the offset store no longer finds the log. */
  void close() {
    writes.close();
    published.close();
  }

  /** As a killed process: a write in progress is interrupted, none starts. */
  void abort() {
    writes.abort();
  }

  @Override
  public void handleBatch(
      List<RecordChangeEvent<SourceRecord>> records,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    batchSinceStart = true;
    if (established()) {
      onRunning.run();
    }
    silence.batchStarted();
    try {
      handle(records, committer);
    } finally {
      silence.batchEnded();
    }
  }

  /**
   * Called when the engine runs with the stream's position established: at the fence of the first
   * run (before {@link #awaitEstablished} returns), then at each batch the engine hands over
   * (heartbeats bring one within a second), a restarted engine's first included.
   */
  void onRunning(Runnable callback) {
    this.onRunning = callback;
  }

  private void handle(
      List<RecordChangeEvent<SourceRecord>> records,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    if (!running) {
      stopDrain.onBatch(records.size()); // not published, position not stored: see StopDrain
      return;
    }
    lock.lockInterruptibly();
    try {
      if (!running) { // stop() came while this batch waited for the lock: as one handed over after
        stopDrain.onBatch(records.size());
        return;
      }
      process(records, committer);
    } catch (RelayStopping e) {
      stopDrain.touch(); // stop() came mid-batch: it ends unmarked, as one handed over after it
    } finally {
      lock.unlock();
    }
  }

  private void process(
      List<RecordChangeEvent<SourceRecord>> records,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    int from = 0;
    if (catchUp != null) {
      from = catchUp.handle(records);
      if (from < 0) {
        // A catch-up of a backlog is the stream at its busiest: retention yields to it too.
        marks.streamed(OutboxEvents.newestChange(records), catchUp.rowsSeen());
        // Before the fence no position is stored: nothing of the batch is marked, so the
        // committer would write nothing (and waiting for it would wait for the log's write).
        return;
      }
      catchUp = null;
    }
    List<PendingRow> rows = new ArrayList<>();
    Set<UUID> toCheck = new HashSet<>();
    Set<Long> txids = new HashSet<>();
    for (RecordChangeEvent<SourceRecord> r : records.subList(from, records.size())) {
      Struct row = events.insertedRow(r.record());
      if (row != null && !events.isFence(row)) {
        PendingRow pending = StreamRows.of(events, row);
        rows.add(pending);
        boolean keyOrdered = StreamRows.keyOrdered(pending);
        if (drains.drainedBefore(pending.aggregateId(), events.seq(row), keyOrdered)) {
          toCheck.add(pending.id());
          long txid = events.txid(row);
          if (txid >= 0) {
            txids.add(txid);
          }
        }
      }
    }
    rounds.awaitVisible(txids);
    rounds.publishUntilDone(rows, toCheck);
    marks.streamed(OutboxEvents.newestChange(records), rows.size());
    writes.write(
        () -> {
          for (RecordChangeEvent<SourceRecord> r : records) {
            committer.markProcessed(r);
          }
          committer.markBatchFinished(); // stores the position, and the published log with it
          rounds.logLeftovers();
        });
  }

  /**
   * Drains the keys whose backoff is over, if any may be: checked every 20 ms, so a key is retried
   * about when its backoff ends, not at the next 200 ms {@link #maintain}.
   */
  void drainDue() throws InterruptedException {
    if (!holds.mayBeDue()) {
      return;
    }
    lock.lockInterruptibly();
    try {
      if (catchUp == null) {
        drains.drainDue();
      }
    } catch (SQLException e) {
      log.warn("{} - retrying a key failed, retrying: {}", config.name(), e.getMessage());
    } finally {
      lock.unlock();
    }
  }

  /** Drains released keys and purges kept rows; run periodically once the stream caught up. */
  void maintain() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      if (catchUp != null) {
        return; // the stream catches up first (once its position is established)
      }
      holds.parked(store.parkedKeys());
      drains.drainDue();
      purge.runIfDue();
    } catch (SQLException e) {
      log.warn("{} - maintenance failed, retrying: {}", config.name(), e.getMessage());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until the first run's stream position is established (its fence written): a row committed
   * after that reaches the relay through the stream, in commit order.
   */
  boolean awaitEstablished(long millis) throws InterruptedException {
    return established.await(millis, TimeUnit.MILLISECONDS);
  }

  /** Whether the first run's stream position is established; any thread. */
  boolean established() {
    return established.getCount() == 0;
  }

  /**
   * Whether the engine delivered a batch since it was last (re)started (heartbeats bring one within
   * a second); any thread.
   */
  boolean running() {
    return batchSinceStart;
  }

  /**
   * Why the offset store's last save of a position failed (masked), or null; any thread. Rows are
   * still published (and retained) meanwhile, but the stream's position stands still: see {@link
   * PublishedLog#saveFailure}.
   */
  String saveFailure() {
    return published.saveFailure();
  }

  /** The engine's batches and silences, heartbeats included ({@link EngineSilence}). */
  EngineSilence silence() {
    return silence;
  }

  /** Keys backing off after a transient failure; any thread. */
  int retryingKeys() {
    return holds.retrying();
  }

  /** Parked keys as last read from the table; any thread. */
  int parkedKeys() {
    return holds.parkedCount();
  }

  void stop() {
    stopDrain.touch();
    running = false;
  }

  /**
   * After {@link #stop()}: waits, at most {@code max}, for a batch in progress to end (it still
   * marks what the broker acknowledged), so that the stop's quiet period is not spent inside it.
   *
   * @return false if the batch was still in progress at {@code max}
   */
  boolean awaitIdle(Duration max) throws InterruptedException {
    long start = System.nanoTime();
    if (!lock.tryLock(max.toNanos(), TimeUnit.NANOSECONDS)) {
      return false;
    }
    try {
      if (!writes.settle(max.toNanos() - (System.nanoTime() - start))) {
        return false;
      }
    } finally {
      lock.unlock();
    }
    stopDrain.touch();
    return true;
  }

  /** Marks published stream rows done; the relay runs it on a thread of its own. */
  LoggedMarks marks() {
    return marks;
  }

  StopDrain stopDrain() {
    return stopDrain;
  }

  /** A (re)started engine streams from the stored position: catch up with the table again. */
  void restarted() {
    batchSinceStart = false;
    silence.restarted();
    published.restarted();
    lock.lock();
    try {
      catchUp = newCatchUp();
    } finally {
      lock.unlock();
    }
  }

  private void pause(Duration d) throws InterruptedException {
    if (!running) {
      throw new RelayStopping(config.name());
    }
    Thread.sleep(d.toMillis());
  }
}
