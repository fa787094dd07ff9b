package dev.outboxrelay.relay.cdc;

import java.util.Arrays;
import java.util.UUID;

/**
 * What a (re)started stream must publish before it flows, and in which order.
 *
 * <p>The stream resumes at its stored position L (or at a new slot's start). Rows still pending in
 * the table may have committed before L (keys held or parked when the relay stopped, rows written
 * before the first start): the stream will never carry those. Others committed after L: the stream
 * carries them, in commit order, which is the order their key must keep. The table cannot tell the
 * two apart, so the relay draws a line it can see on both sides:
 *
 * <ol>
 *   <li>one statement reads the sequence numbers of every pending row (a consistent view S);
 *   <li>then a fence row is written (and deleted, in the same transaction). Every transaction
 *       visible in S committed before the fence, so the stream carries it before the fence if it
 *       committed after L;
 *   <li>stream rows before the fence are only recorded, not published, and their positions not
 *       stored;
 *   <li>at the fence: the rows of S the stream did not carry (they committed before L) go first, in
 *       sequence order; then the recorded stream rows, in stream order; then the stream flows.
 * </ol>
 *
 * Per key that is commit order: rows before L, then the stream's. Processor thread only.
 */
final class CatchUp {
  private long[] pendingAtFence;
  private UUID fence;
  private long[] seen = new long[1024];
  private int seenCount;
  private long[] txids = new long[1024];
  private int txidCount;

  boolean fenced() {
    return fence != null;
  }

  /** The fence was written after the table showed these pending rows (ascending sequences). */
  void fenced(long[] pendingSeqs, UUID fenceId) {
    this.pendingAtFence = pendingSeqs;
    this.fence = fenceId;
  }

  boolean isOurFence(UUID id) {
    return id.equals(fence);
  }

  /** A row the stream carried before the fence, and its writer's transaction id (or -1). */
  void seen(long seq, long txid) {
    if (seenCount == seen.length) {
      seen = Arrays.copyOf(seen, seen.length * 2);
    }
    seen[seenCount++] = seq;
    if (txid >= 0 && (txidCount == 0 || txids[txidCount - 1] != txid)) {
      if (txidCount == txids.length) {
        txids = Arrays.copyOf(txids, txids.length * 2);
      }
      txids[txidCount++] = txid;
    }
  }

  /** The distinct transaction ids of the stream's rows before the fence (PostgreSQL). */
  long[] streamedTxids() {
    return Arrays.stream(txids, 0, txidCount).distinct().toArray();
  }

  /** The stream's rows before the fence, in stream (commit) order. */
  long[] streamed() {
    return Arrays.copyOf(seen, seenCount);
  }

  /** The pending rows the stream did not carry before the fence, ascending: committed before L. */
  long[] before() {
    long[] streamed = streamed();
    Arrays.sort(streamed);
    long[] out = new long[pendingAtFence.length];
    int n = 0;
    for (long seq : pendingAtFence) {
      if (Arrays.binarySearch(streamed, seq) < 0) {
        out[n++] = seq;
      }
    }
    return Arrays.copyOf(out, n);
  }
}
