package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.engine.Ticker;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Batches acknowledged by the broker whose rows are not marked done yet: on a live stream the relay
 * marks them together, every {@link #MARK_DELAY} or so, instead of one durable commit per pass, and
 * its claims skip their rows (by {@code seq}) until then. The {@code -apply} thread adds, the
 * worker thread reads and marks; thread-safe.
 *
 * <p>A live stream is single claims, with more than one batch in flight allowed and no strict
 * order: after a pass that published rows the relay polls again within {@link Waker#FOLLOW_UP} for
 * {@link Waker#FOLLOW_UP_WINDOW}, and it marks the acknowledged rows of several passes together, at
 * least every {@link #MARK_DELAY}, before it sleeps longer, rebalances, drains a backlog or stops,
 * so that finding rows within milliseconds does not cost a durable commit every few milliseconds
 * beside the application's writers. Each pass reads its leases first (a plain read), so a relay
 * that lost a bucket learns it before its next claim, as it would from its next mark. The rows
 * awaiting their mark and the batch in flight together stay within {@code batchSize *
 * inFlightBatches}, the bound on messages sent again after a kill. A backoff after an outage is not
 * shortened by the follow-ups, and the rows acknowledged before it are marked first.
 */
final class PendingMarks {
  /** The longest a live stream's acknowledged rows wait for their mark. */
  static final Duration MARK_DELAY = Duration.ofMillis(50);

  /**
   * The most rows awaiting their mark that a claim skips ({@code seq NOT IN (...)}): a short list
   * of parameters (MariaDB turns an IN list of 1,000 values or more into a subquery).
   */
  static final int MAX_SKIPPED = 500;

  private final List<BatchPublisher.Acked> batches = new ArrayList<>();
  private int rows;
  private final Ticker ticker;
  private long oldestNanos;

  PendingMarks(Ticker ticker) {
    this.ticker = ticker;
  }

  synchronized void add(BatchPublisher.Acked batch) {
    if (batches.isEmpty()) {
      oldestNanos = ticker.read();
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

  /**
   * Whether the rows awaiting their mark should be marked before the next claim: the oldest waited
   * {@link #MARK_DELAY}, one more batch in flight would take them past {@code batchSize * lanes},
   * or the claim would skip {@link #MAX_SKIPPED} of them or more.
   */
  synchronized boolean due(long nowNanos, int batchSize, int lanes) {
    if (batches.isEmpty()) {
      return false;
    }
    return nowNanos - oldestNanos >= MARK_DELAY.toNanos()
        || rows + batchSize > batchSize * lanes
        || rows >= MAX_SKIPPED;
  }

  /**
   * Marks every batch waiting (one statement, fenced by the lease); kept for the next try if the
   * mark fails. Worker thread.
   */
  void markAll(BatchPublisher publisher, Leases leases) throws SQLException {
    if (isEmpty()) {
      return;
    }
    List<BatchPublisher.Acked> waiting = waiting();
    publisher.mark(waiting, leases);
    marked(waiting);
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
      oldestNanos = ticker.read(); // conservative: the rest waits at most one more delay
    }
  }
}
