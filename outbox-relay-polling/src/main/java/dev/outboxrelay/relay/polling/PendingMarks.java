package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.rows.PendingRow;
import java.util.ArrayList;
import java.util.List;

/**
 * Batches acknowledged by the broker whose rows are not marked done yet: on a live stream the relay
 * marks them together, every {@link RelayWorker#MARK_DELAY} or so, instead of one durable commit
 * per pass, and its claims skip their rows (by {@code seq}) until then. The {@code -apply} thread
 * adds, the worker thread reads and marks; thread-safe.
 */
final class PendingMarks {
  private final List<BatchPublisher.Acked> batches = new ArrayList<>();
  private int rows;
  private long oldestNanos;

  synchronized void add(BatchPublisher.Acked batch) {
    if (batches.isEmpty()) {
      oldestNanos = System.nanoTime();
    }
    batches.add(batch);
    rows += batch.rows().size();
  }

  synchronized boolean isEmpty() {
    return batches.isEmpty();
  }

  /** Rows awaiting their mark. */
  synchronized int rows() {
    return rows;
  }

  /** How long the oldest batch has waited for its mark at {@code nowNanos}; 0 if none. */
  synchronized long waitedNanos(long nowNanos) {
    return batches.isEmpty() ? 0 : nowNanos - oldestNanos;
  }

  /** The {@code seq} values of the rows awaiting their mark, for the claim to skip. */
  synchronized List<Long> sequences() {
    List<Long> seqs = new ArrayList<>(rows);
    for (BatchPublisher.Acked b : batches) {
      for (PendingRow r : b.rows()) {
        seqs.add(r.sequence());
      }
    }
    return seqs;
  }

  /** The batches now waiting, oldest first; they stay until {@link #marked} removes them. */
  synchronized List<BatchPublisher.Acked> waiting() {
    return List.copyOf(batches);
  }

  /**
   * Forgets batches that were marked (or whose mark the fence refused): a prefix of those {@link
   * #waiting} returned, since batches are only ever added behind them.
   */
  synchronized void marked(List<BatchPublisher.Acked> done) {
    for (BatchPublisher.Acked b : done) {
      if (batches.isEmpty() || batches.get(0) != b) {
        throw new IllegalStateException("marks are forgotten in the order they were added");
      }
      batches.remove(0);
      rows -= b.rows().size();
    }
    if (!batches.isEmpty()) {
      oldestNanos = System.nanoTime(); // conservative: the rest waits at most one more delay
    }
  }
}
