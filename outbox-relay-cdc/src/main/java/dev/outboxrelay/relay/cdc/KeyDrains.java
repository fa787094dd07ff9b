package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.engine.KeyBackoffs;
import dev.outboxrelay.relay.engine.KeyDelivery;
import dev.outboxrelay.relay.engine.KeyHolds;
import dev.outboxrelay.relay.engine.PublishOutcome;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Drains a released key (unparked, or its backoff over) from the table, in sequence order, before
 * its next stream row may flow: the stream carried its rows while it was held, and skipped them.
 * Each round first lets the last durable write end and marks the logged rows, so that no row
 * published from the stream reads as pending. A drain stops at the key's first failure (the key
 * stays held). A key's drain can read a row that committed a moment before the stream carries it:
 * {@link #drainedBefore} tells the stream to read such rows again before it publishes them.
 * Processor thread only, under the processor's lock.
 */
final class KeyDrains {
  private final CdcRelayConfig config;
  private final CdcStore store;
  private final KeyHolds holds;
  private final Publishing publishing;
  private final PositionWrites writes;
  private final LoggedMarks marks;
  private final BooleanSupplier running;
  // Keys drained from the table, and the last sequence read: see drainedBefore.
  private final Map<String, Long> drainedThrough = new HashMap<>();

  KeyDrains(
      CdcRelayConfig config,
      CdcStore store,
      KeyHolds holds,
      Publishing publishing,
      PositionWrites writes,
      LoggedMarks marks,
      BooleanSupplier running) {
    this.config = config;
    this.store = store;
    this.holds = holds;
    this.publishing = publishing;
    this.writes = writes;
    this.marks = marks;
    this.running = running;
  }

  /** Drains every key due now: released from parking, or whose backoff is over. */
  void drainDue() throws SQLException, InterruptedException {
    for (String key : holds.due()) {
      drain(key);
    }
  }

  private void drain(String key) throws SQLException, InterruptedException {
    holds.draining(key);
    while (running.getAsBoolean()) {
      writes.settle(Long.MAX_VALUE); // a logged batch still being written would read as pending
      marks.flush(); // the key's rows published from the stream must not read as pending
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
      KeyDelivery.Applied applied = publishing.publish(rows, false);
      if (applied.outcome() == PublishOutcome.OUTAGE) {
        KeyBackoffs.Attempt attempt = holds.backoffs().failed(key);
        publishing.retrying(attempt.number(), attempt.delay());
      }
      if (applied.outcome() == PublishOutcome.OUTAGE
          || applied.stopped().contains(key)
          || holds.isParked(key)) {
        break;
      }
    }
    holds.drainFailed();
  }

  /**
   * Whether a stream row may already have been published by a drain of its key (which read the
   * table, where a row can be committed a moment before the stream carries it): then it is read
   * again before it is published. Forgets the drain once a row of the key past it arrives in key
   * order.
   */
  boolean drainedBefore(String key, long seq, boolean keyOrdered) {
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
}
