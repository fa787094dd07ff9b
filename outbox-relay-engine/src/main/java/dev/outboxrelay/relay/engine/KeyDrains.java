package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.rows.PendingRow;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Drains a released key (unparked, or its backoff over) from the table, in sequence order, before
 * its next row from the source's own flow may go: a source that carries every row as it commits
 * (the CDC stream) skipped the key's rows while it was held ({@link KeyHolds}). Each round first
 * lets the source make what it already published read as done ({@link Table#settle}). A drain stops
 * at the key's first failure (the key stays held). A drain can read a row that committed a moment
 * before the source's flow carries it: {@link #drainedBefore} says which flowing rows to read again
 * before they are published. One thread, under its source's lock.
 */
public final class KeyDrains {

  /** What a drain reads and publishes through. */
  public interface Table {
    /** Makes every row the source already published read as done in the table. */
    void settle() throws SQLException, InterruptedException;

    /** Pending rows of one key, oldest first. */
    List<PendingRow> pendingOfKey(String key, int limit) throws SQLException;

    /** Publishes drained rows and marks the acknowledged ones done before returning. */
    KeyDelivery.Applied publish(List<PendingRow> rows) throws SQLException, InterruptedException;

    /** An outage stopped the key's drain: it backs off ({@code attempt}). */
    void retrying(KeyDelivery.Applied outage, KeyBackoffs.Attempt attempt);
  }

  private final int batchSize;
  private final KeyHolds holds;
  private final Table table;
  private final BooleanSupplier running;
  // Keys drained from the table, and the last sequence read: see drainedBefore.
  private final Map<String, Long> drainedThrough = new HashMap<>();

  public KeyDrains(int batchSize, KeyHolds holds, Table table, BooleanSupplier running) {
    this.batchSize = batchSize;
    this.holds = holds;
    this.table = table;
    this.running = running;
  }

  /** Drains every key due now: released from parking, or whose backoff is over. */
  public void drainDue() throws SQLException, InterruptedException {
    for (String key : holds.due()) {
      drain(key);
    }
  }

  private void drain(String key) throws SQLException, InterruptedException {
    holds.draining(key);
    while (running.getAsBoolean()) {
      table.settle();
      List<PendingRow> rows = table.pendingOfKey(key, batchSize);
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
      KeyDelivery.Applied applied = table.publish(rows);
      if (applied.outcome() == PublishOutcome.OUTAGE) {
        table.retrying(applied, holds.backoffs().failed(key));
        break;
      }
      if (applied.stopped().contains(key) || holds.isParked(key)) {
        break;
      }
    }
    holds.drainFailed();
  }

  /**
   * Whether a flowing row may already have been published by a drain of its key (which read the
   * table, where a row can be committed a moment before the flow carries it): then it is read again
   * before it is published. Forgets the drain once a row of the key past it arrives in key order
   * ({@code keyOrdered}: the writer ordered the key's sequence by commit).
   */
  public boolean drainedBefore(String key, long seq, boolean keyOrdered) {
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
