package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.engine.KeyHolds;
import dev.outboxrelay.relay.engine.Retry;
import io.debezium.engine.RecordChangeEvent;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one (re)start's catch-up ({@link CatchUp} says what and in which order): writes the fence
 * at the stream's first batch, records or lets flow the stream's rows before it, and at the fence
 * publishes the rows the stream will not carry, then the recorded ones. No position is stored
 * before the fence. Processor thread only, under the processor's lock; one per engine run.
 */
final class CatchUpDriver {
  private static final Logger log = LoggerFactory.getLogger(CatchUpDriver.class);
  private static final int VISIBILITY_CHUNK = 1000;

  private final CdcRelayConfig config;
  private final CdcStore store;
  private final OutboxEvents events;
  private final KeyHolds holds;
  private final LoggedMarks marks;
  private final PositionWrites writes;
  private final RoundPublisher rounds;
  private final Retry retry;
  private final Runnable onFenced;
  private final CatchUp catchUp = new CatchUp();
  private int rowsSeen; // outbox rows in the last batch handled

  CatchUpDriver(
      CdcRelayConfig config,
      CdcStore store,
      OutboxEvents events,
      KeyHolds holds,
      LoggedMarks marks,
      PositionWrites writes,
      RoundPublisher rounds,
      Retry retry,
      Runnable onFenced) {
    this.config = config;
    this.store = store;
    this.events = events;
    this.holds = holds;
    this.marks = marks;
    this.writes = writes;
    this.rounds = rounds;
    this.retry = retry;
    this.onFenced = onFenced;
  }

  /**
   * Records this batch's rows until the stream reaches this run's fence (writing the fence first if
   * it is not written yet); at the fence publishes the catch-up. Returns the index of the first
   * record after the fence, or -1 while the fence is still ahead.
   */
  int handle(List<RecordChangeEvent<SourceRecord>> records) throws InterruptedException {
    if (!catchUp.fenced()) {
      writeFence();
    }
    List<PendingRow> flowing = new ArrayList<>();
    rowsSeen = 0;
    for (int i = 0; i < records.size(); i++) {
      Struct row = events.insertedRow(records.get(i).record());
      if (row == null) {
        continue;
      }
      if (!events.isFence(row)) {
        rowsSeen++;
        recordOrFlow(row, flowing);
      } else if (catchUp.isOurFence(events.id(row))) {
        rounds.publishLogged(flowing);
        publishCatchUp();
        return i + 1;
      }
    }
    rounds.publishLogged(flowing);
    return -1;
  }

  /** Outbox rows in the last batch {@link #handle} was given. */
  int rowsSeen() {
    return rowsSeen;
  }

  /** Reads the pending rows and writes the fence; a database error is retried at the next batch. */
  private void writeFence() throws InterruptedException {
    try {
      writes.settle(Long.MAX_VALUE); // an earlier run's last write, before the table is read
      holds.parked(store.parkedKeys());
      marks.flush(); // rows published and logged (by this relay, or one before it) are done
      CatchUp.Pending pending = store.pendingSeqs();
      UUID fence = UUID.randomUUID();
      store.writeFence(fence, config.name());
      catchUp.fenced(pending, fence);
      onFenced.run();
      log.info(
          "{} - {} rows pending in the table; catching up when the stream reaches fence {}",
          config.name(),
          pending.seqs().length,
          fence);
    } catch (SQLException e) {
      log.warn(
          "{} - cannot write the catch-up fence yet, retrying: {}", config.name(), e.getMessage());
    }
  }

  /**
   * A stream row before the fence: published with the batch when {@link CatchUp#mayFlow} allows (it
   * was pending in the fence's view, so no read is needed), else recorded for the fence.
   */
  private void recordOrFlow(Struct row, List<PendingRow> flowing) {
    long seq = events.seq(row);
    catchUp.seen(seq);
    if (!catchUp.fenced() || seq < 0) {
      catchUp.record(seq, events.txid(row));
      return;
    }
    PendingRow pending = StreamRows.of(events, row);
    String key = pending.aggregateId();
    if (catchUp.mayFlow(key, seq, StreamRows.keyOrdered(pending), holds.isHeld(key))) {
      flowing.add(pending);
    } else {
      catchUp.record(seq, events.txid(row));
    }
  }

  private void publishCatchUp() throws InterruptedException {
    long[] before = catchUp.before();
    long[] recorded = catchUp.recorded();
    long[] txids = catchUp.recordedTxids();
    for (int from = 0; from < txids.length; from += VISIBILITY_CHUNK) {
      int to = Math.min(txids.length, from + VISIBILITY_CHUNK);
      rounds.awaitVisible(Arrays.stream(txids, from, to).boxed().toList());
    }
    publishSeqs(before);
    publishSeqs(recorded);
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
      int first = from;
      int to = Math.min(seqs.length, from + config.batchSize());
      rounds.publishLogged(
          retry.untilDone("catch-up read", () -> store.pendingBySeq(seqs, first, to)));
    }
  }
}
