package dev.outboxrelay.dedup.internal;

import java.time.Duration;

/**
 * Sizes the next batch: at most {@code maxRecords}; when a batch's transaction took longer than
 * {@code maxTime}, the next is cut to what fits in it at the measured rate (at least one record),
 * and it doubles back after each batch that was full and on time. Keeps slow handlers from holding
 * locks, and the poll loop from missing {@code max.poll.interval.ms}. Loop thread only.
 */
public final class BatchSizer {
  private final int maxRecords;
  private final long maxNanos;
  private int size;

  public BatchSizer(int maxRecords, Duration maxTime) {
    this.maxRecords = maxRecords;
    this.maxNanos = maxTime.toNanos();
    this.size = maxRecords;
  }

  /** Records to put in the next batch. */
  public int next() {
    return size;
  }

  /** A batch of {@code records} took {@code nanos} from start to commit. */
  public void took(int records, long nanos) {
    if (nanos > maxNanos) {
      size = (int) Math.max(1, Math.min(size, records * (double) maxNanos / nanos));
    } else if (records >= size) {
      size = (int) Math.min(maxRecords, 2L * size);
    }
  }
}
