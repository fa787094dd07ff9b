package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.cdc.internal.debezium.EngineSilence;
import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import dev.outboxrelay.relay.cdc.internal.debezium.StopDrain;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles the engine's batches: outbox INSERTs are published; the batch's records are marked
 * processed (so the stored position advances) only after every message was acknowledged and marked,
 * held for a key (its rows stay pending in the table), or parked. The table is the source of truth:
 * at each (re)start the rows the stream will not carry are caught up first (see {@link CatchUp}),
 * and a released key is drained from it in order.
 */
final class CdcProcessor implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {
  private static final Logger log = LoggerFactory.getLogger(CdcProcessor.class);

  private final CdcRelayConfig config;
  private final CdcStore store;
  private final OutboxEvents events;
  private final KeyHolds holds;
  private final Publishing publishing;
  private final Retention retention;
  private final PublishedLog published;
  private final Properties engineProperties;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile boolean running = true;
  private volatile boolean batchSinceStart; // the engine (re)started runs: it delivered a batch
  private final StopDrain stopDrain;
  private final EngineSilence silence;
  private CatchUp catchUp = new CatchUp();
  // Keys drained from the table, and the last sequence read: see drainedBefore.
  private final Map<String, Long> drainedThrough = new HashMap<>();
  private final CountDownLatch established = new CountDownLatch(1);
  private long nextPurgeNanos;
  // The durable write of the last published batch: its position with its published log, or in the
  // catch-up its log alone. On a thread of its own, so that it overlaps the next batch's publishing
  // and acknowledgements; one at a time, the next batch's write waits for it. Under the lock.
  private final ExecutorService writes;
  private Future<?> writing;
  private int caughtUpRows; // outbox rows in the last batch catchUp(...) handled

  /** {@code debezium}: the engine's effective settings ({@link DebeziumConfig#of}). */
  CdcProcessor(CdcRelayConfig config, CdcStore store, Properties debezium) {
    this.config = config;
    this.store = store;
    this.events = new OutboxEvents(config.table());
    this.holds = new KeyHolds(config.backoff());
    this.published = store.newPublishedLog();
    this.publishing = new Publishing(config, store, published, holds, () -> running);
    this.retention = new Retention(config.name(), store, published);
    this.stopDrain = new StopDrain(debezium);
    this.silence = new EngineSilence(debezium, config.source().dialect() != SqlDialect.POSTGRESQL);
    this.writes =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, config.name() + "-position");
              t.setDaemon(true);
              return t;
            });
    this.engineProperties = new Properties();
    engineProperties.putAll(debezium);
    engineProperties.setProperty(PublishedLog.TOKEN_PROPERTY, published.token());
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
    writes.shutdown();
    try {
      writes.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    published.close();
  }

  /** As a killed process: a write in progress is interrupted, none starts. */
  void abort() {
    writes.shutdownNow();
  }

  @Override
  public void handleBatch(
      List<RecordChangeEvent<SourceRecord>> records,
      DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
      throws InterruptedException {
    batchSinceStart = true;
    silence.batchStarted();
    try {
      handle(records, committer);
    } finally {
      silence.batchEnded();
    }
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
      from = catchUp(records);
      if (from < 0) {
        // A catch-up of a backlog is the stream at its busiest: retention yields to it too.
        retention.streamed(newestChange(records), caughtUpRows);
        // Before the fence no position is stored: nothing of the batch is marked, so the
        // committer would write nothing (and waiting for it would wait for the log's write).
        return;
      }
    }
    List<PendingRow> rows = new ArrayList<>();
    Set<UUID> toCheck = new HashSet<>();
    Set<Long> txids = new HashSet<>();
    for (RecordChangeEvent<SourceRecord> r : records.subList(from, records.size())) {
      Struct row = events.insertedRow(r.record());
      if (row != null && !events.isFence(row)) {
        PendingRow pending = toRow(row);
        rows.add(pending);
        if (drainedBefore(pending.aggregateId(), events.seq(row), keyOrdered(pending))) {
          toCheck.add(pending.id());
          long txid = events.txid(row);
          if (txid >= 0) {
            txids.add(txid);
          }
        }
      }
    }
    awaitVisible(txids);
    publishUntilDone(rows, toCheck);
    retention.streamed(newestChange(records), rows.size());
    write(
        () -> {
          for (RecordChangeEvent<SourceRecord> r : records) {
            committer.markProcessed(r);
          }
          committer.markBatchFinished(); // stores the position, and the published log with it
          logLeftovers();
        });
  }

  /** When the batch's newest change happened (the source's clock), or -1. */
  private static long newestChange(List<RecordChangeEvent<SourceRecord>> records) {
    long changed = -1;
    for (int i = records.size() - 1; i >= 0 && changed < 0; i--) {
      changed = OutboxEvents.sourceMillis(records.get(i).record());
    }
    return changed;
  }

  /** A step of the durable write: the engine's committer, or the store. */
  private interface WriteStep {
    void run() throws InterruptedException;
  }

  /**
   * Starts the durable write of the batch just acknowledged, once the one before it has ended (its
   * failure is thrown here). So at most two batches are published and not yet written: the one
   * whose write is in progress and the next; that is the bound on duplicates after a kill.
   */
  private void write(WriteStep step) throws InterruptedException {
    awaitWrite();
    Callable<Void> task =
        () -> {
          step.run();
          return null;
        };
    try {
      writing = writes.submit(task);
    } catch (RejectedExecutionException e) {
      throw new RelayStopping(config.name()); // aborted: nothing more is written
    }
  }

  /** Waits for the write in progress, if any; throws its failure. */
  private void awaitWrite() throws InterruptedException {
    Future<?> w = writing;
    if (w == null) {
      return;
    }
    try {
      w.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof InterruptedException) {
        throw new RelayStopping(config.name());
      }
      throw new IllegalStateException(cause);
    } finally {
      if (w.isDone()) {
        writing = null;
      }
    }
  }

  /**
   * Waits at most {@code nanos} for the write in progress; a failure is logged, not thrown (the
   * engine that made it is stopping or restarting, or a key's drain waits for it: what the write
   * did not take stays in the published log, which the drain writes first). Returns false on
   * timeout.
   */
  private boolean settleWrite(long nanos) throws InterruptedException {
    Future<?> w = writing;
    if (w == null) {
      return true;
    }
    try {
      w.get(nanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof InterruptedException)) { // stopping: nothing failed
        log.warn("{} - a position write failed: {}", config.name(), e.getCause().toString());
      }
    }
    writing = null;
    return true;
  }

  /**
   * The published batches the position's save did not take (a failed flush, a user's offset store):
   * logged now, before the next position can be stored without them. If this fails too, they go
   * with the next save, or with the next {@link Retention#flush}.
   */
  private void logLeftovers() {
    if (published.isEmpty()) {
      return;
    }
    try {
      store.writeLog(published);
    } catch (SQLException e) {
      log.debug("{} - published log not written yet: {}", config.name(), e.getMessage());
    }
  }

  /**
   * Whether a stream row may already have been published by a drain of its key (which read the
   * table, where a row can be committed a moment before the stream carries it): then it is read
   * again before it is published. Forgets the drain once a row of the key past it arrives in key
   * order.
   */
  private boolean drainedBefore(String key, long seq, boolean keyOrdered) {
    Long through = drainedThrough.get(key);
    if (through == null) {
      return false;
    }
    if (seq > through) {
      if (keyOrdered) {
        drainedThrough.remove(key);
      }
      return false;
    }
    return true;
  }

  private static boolean keyOrdered(PendingRow row) {
    return row.message() != null
        && MessageContract.SEQUENCE_ORDER_KEY.equals(
            row.message().headers().get(MessageContract.HEADER_SEQUENCE_ORDER));
  }

  private PendingRow toRow(Struct row) {
    String key = events.aggregateId(row);
    int b = events.bucket(row);
    try {
      OutboxMessage m = events.message(row);
      return new PendingRow(m.id(), key, b, m, null);
    } catch (RuntimeException e) {
      return new PendingRow(events.id(row), key, b, null, "malformed row: " + e.getMessage());
    }
  }

  /**
   * PostgreSQL: waits until these transactions, whose commits the stream carried, are visible to a
   * new snapshot. The WAL can carry a commit a moment before the transaction becomes visible; a row
   * read as absent in that moment would be taken for done and never published.
   */
  private void awaitVisible(Collection<Long> txids) throws InterruptedException {
    Collection<Long> waiting = txids;
    long since = System.nanoTime();
    boolean warned = false;
    int attempt = 0;
    while (!waiting.isEmpty()) {
      try {
        waiting = store.invisibleTxids(waiting);
        if (waiting.isEmpty()) {
          return;
        }
        if (!warned && System.nanoTime() - since > Duration.ofSeconds(10).toNanos()) {
          warned = true;
          log.warn(
              "{} - {} committed transactions still not visible after 10 s; waiting",
              config.name(),
              waiting.size());
        }
        pause(Duration.ofMillis(5));
      } catch (SQLException e) {
        log.warn("{} - visibility check failed, retrying: {}", config.name(), e.getMessage());
        pause(Duration.ofMillis(config.backoff().apply(++attempt)));
      }
    }
  }

  /**
   * Publishes the rows, skipping those of {@code toCheck} that are no longer pending (read first);
   * on an outage retries with backoff, never skipping, reading every row again before each retry.
   */
  private void publishUntilDone(List<PendingRow> rows, Set<UUID> toCheck)
      throws InterruptedException {
    int attempt = 0;
    Set<UUID> check = toCheck;
    while (!rows.isEmpty()) {
      Duration delay = Duration.ofMillis(config.backoff().apply(++attempt));
      try {
        if (!check.isEmpty()) {
          Set<UUID> asked = check;
          Set<UUID> pending =
              store.stillPending(
                  rows.stream().map(PendingRow::id).filter(asked::contains).toList());
          rows =
              rows.stream()
                  .filter(r -> !asked.contains(r.id()) || pending.contains(r.id()))
                  .toList();
        }
        if (publishing.publish(rows, true) == Publishing.Outcome.PROGRESS) {
          return;
        }
        check = rows.stream().map(PendingRow::id).collect(Collectors.toSet());
        publishing.retrying(attempt, delay);
      } catch (SQLException e) {
        check = rows.stream().map(PendingRow::id).collect(Collectors.toSet());
        log.warn("{} - database error, retrying: {}", config.name(), e.getMessage());
      }
      pause(delay);
    }
  }

  /**
   * Drains the keys whose backoff is over, if any may be: checked every 20 ms, so a key is retried
   * about when its backoff ends, not at the next 200 ms {@link #maintain} (which rounded a 100 ms
   * backoff up to as much as 300 ms, and made a short first backoff look as long as a later one).
   */
  void drainDue() throws InterruptedException {
    if (!holds.mayBeDue()) {
      return;
    }
    lock.lockInterruptibly();
    try {
      if (catchUp != null) {
        return;
      }
      for (String key : holds.due()) {
        drain(key);
      }
    } catch (SQLException e) {
      log.warn("{} - retrying a key failed, retrying: {}", config.name(), e.getMessage());
    } finally {
      lock.unlock();
    }
  }

  /** Catches up pending rows and drains released keys; run at start and periodically. */
  void maintain() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      if (catchUp != null) {
        return; // the stream catches up first (once its position is established)
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

  /**
   * Records this batch's rows until the stream reaches this run's fence (writing the fence first if
   * it is not written yet); at the fence publishes the catch-up. Returns the index of the first
   * record after the fence, or -1 while the fence is still ahead.
   */
  private int catchUp(List<RecordChangeEvent<SourceRecord>> records) throws InterruptedException {
    if (!catchUp.fenced()) {
      try {
        settleWrite(Long.MAX_VALUE); // an earlier run's last write, before the table is read
        holds.parked(store.parkedKeys());
        retention.flush(); // rows published and logged (by this relay, or one before it) are done
        CatchUp.Pending pending = store.pendingSeqs();
        UUID fence = UUID.randomUUID();
        store.writeFence(fence, config.name());
        catchUp.fenced(pending, fence);
        established.countDown();
        log.info(
            "{} - {} rows pending in the table; catching up when the stream reaches fence {}",
            config.name(),
            pending.seqs().length,
            fence);
      } catch (SQLException e) {
        log.warn(
            "{} - cannot write the catch-up fence yet, retrying: {}",
            config.name(),
            e.getMessage());
      }
    }
    List<PendingRow> flowing = new ArrayList<>();
    caughtUpRows = 0;
    for (int i = 0; i < records.size(); i++) {
      Struct row = events.insertedRow(records.get(i).record());
      if (row == null) {
        continue;
      }
      if (!events.isFence(row)) {
        caughtUpRows++;
        recordOrFlow(row, flowing);
      } else if (catchUp.isOurFence(events.id(row))) {
        publishLogged(flowing);
        publishCatchUp();
        return i + 1;
      }
    }
    publishLogged(flowing);
    return -1;
  }

  /**
   * Publishes catch-up rows, then writes their published log ({@link #write}: while the next batch
   * goes out). No position is stored before the fence (the stream's batches there are not marked),
   * so no offset save takes the log with it: without this a kill in a long catch-up re-sent every
   * row it had published, not the batches in flight. Retries the write while the database fails.
   */
  private void publishLogged(List<PendingRow> rows) throws InterruptedException {
    publishUntilDone(rows, Set.of());
    write(this::writeLog);
  }

  /** On the write thread: the published log, retried while the database fails. */
  private void writeLog() throws InterruptedException {
    int attempt = 0;
    while (!published.isEmpty()) {
      try {
        store.writeLog(published);
      } catch (SQLException e) {
        log.warn("{} - published log not written, retrying: {}", config.name(), e.getMessage());
        pause(Duration.ofMillis(config.backoff().apply(++attempt)));
      }
    }
  }

  /**
   * A stream row before the fence: published with the batch when {@link CatchUp#mayFlow} allows (it
   * was pending in the fence's view, so no read is needed), else recorded for the fence.
   */
  private void recordOrFlow(Struct row, List<PendingRow> flowing) {
    long seq = events.seq(row);
    if (!catchUp.fenced() || seq < 0) {
      catchUp.seen(seq);
      catchUp.record(seq, events.txid(row));
      return;
    }
    catchUp.seen(seq);
    PendingRow pending = toRow(row);
    String key = pending.aggregateId();
    if (catchUp.mayFlow(key, seq, keyOrdered(pending), holds.isHeld(key))) {
      flowing.add(pending);
    } else {
      catchUp.record(seq, events.txid(row));
    }
  }

  private void publishCatchUp() throws InterruptedException {
    long[] before = catchUp.before();
    long[] recorded = catchUp.recorded();
    long[] txids = catchUp.recordedTxids();
    for (int from = 0; from < txids.length; from += 1000) {
      awaitVisible(
          Arrays.stream(txids, from, Math.min(txids.length, from + 1000)).boxed().toList());
    }
    publishSeqs(before);
    publishSeqs(recorded);
    catchUp = null;
    log.info(
        "{} - caught up: {} rows committed before the stream's start, {} streamed before the fence"
            + " held for it",
        config.name(),
        before.length,
        recorded.length);
  }

  /** Publishes the rows of these sequence numbers still pending, in the order given. */
  private void publishSeqs(long[] seqs) throws InterruptedException {
    for (int from = 0; from < seqs.length; from += config.batchSize()) {
      int to = Math.min(seqs.length, from + config.batchSize());
      int attempt = 0;
      List<PendingRow> rows = null;
      while (rows == null) {
        try {
          rows = store.pendingBySeq(seqs, from, to);
        } catch (SQLException e) {
          log.warn("{} - catch-up read failed, retrying: {}", config.name(), e.getMessage());
          pause(Duration.ofMillis(config.backoff().apply(++attempt)));
        }
      }
      publishLogged(rows);
    }
  }

  private void drain(String key) throws SQLException, InterruptedException {
    holds.draining(key);
    while (running) {
      settleWrite(Long.MAX_VALUE); // a logged batch still being written would read as pending
      retention.flush(); // the key's rows published from the stream must not read as pending
      List<PendingRow> rows = store.pendingOfKey(key, config.batchSize());
      if (rows.isEmpty()) {
        holds.drained(key);
        return;
      }
      rows.stream()
          .map(PendingRow::message)
          .filter(m -> m != null && m.sequence().isPresent())
          .mapToLong(m -> m.sequence().getAsLong())
          .max()
          .ifPresent(seq -> drainedThrough.merge(key, seq, Math::max));
      if (publishing.publish(rows, false) == Publishing.Outcome.OUTAGE) {
        Duration delay = holds.block(key);
        publishing.retrying(holds.attempts(key), delay);
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

  /** The engine's silence, heartbeats included, when longer than {@link EngineSilence} allows. */
  Optional<Duration> silentBeyondLimit() {
    return silence.beyondLimit(System.nanoTime());
  }

  Optional<Duration> silenceLimit() {
    return silence.limit();
  }

  /** Batches the engine has handed over and the relay handled; any thread. */
  long batchesHandled() {
    return silence.handled();
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
      if (!settleWrite(max.toNanos() - (System.nanoTime() - start))) {
        return false;
      }
    } finally {
      lock.unlock();
    }
    stopDrain.touch();
    return true;
  }

  /** Marks published stream rows done; the relay runs it on a thread of its own. */
  Retention retention() {
    return retention;
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
      catchUp = new CatchUp();
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
