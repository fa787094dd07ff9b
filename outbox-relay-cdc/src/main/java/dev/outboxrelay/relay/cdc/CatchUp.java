package dev.outboxrelay.relay.cdc;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
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
 *   <li>one statement reads the sequence number and key of every pending row (a consistent view S);
 *   <li>then a fence row is written (and deleted, in the same transaction). Every transaction
 *       visible in S committed before the fence, so the stream carries it before the fence if it
 *       committed after L;
 *   <li>a stream row before the fence flows at once when its key provably has no row committed
 *       before L ({@link #mayFlow}); the others are only recorded, and no position is stored;
 *   <li>at the fence: the rows of S the stream did not carry (they committed before L) go first, in
 *       sequence order; then the recorded stream rows, in stream order; then the stream flows.
 * </ol>
 *
 * Per key that is commit order: rows before L, then the stream's. Processor thread only.
 */
final class CatchUp {
  /** The pending rows of the consistent view: sequences ascending, and each key's first. */
  record Pending(long[] seqs, Map<String, Long> firstOfKey) {}

  private enum KeyState {
    /** The stream carried the key's first pending row first: nothing of it committed before L. */
    FLOWS,
    /** Its rows wait for the fence. */
    RECORDED
  }

  private Pending pending;
  private UUID fence;
  private final Map<String, KeyState> keys = new HashMap<>();
  private final Longs seen = new Longs();
  private final Longs recorded = new Longs();
  private final Longs recordedTxids = new Longs();

  boolean fenced() {
    return fence != null;
  }

  /** The fence was written after the table showed these pending rows. */
  void fenced(Pending pendingRows, UUID fenceId) {
    this.pending = pendingRows;
    this.fence = fenceId;
  }

  boolean isOurFence(UUID id) {
    return id.equals(fence);
  }

  /**
   * Whether a stream row before the fence may be published now. It may when its key's order is its
   * sequence ({@code keyOrdered}: the writer's key lock made a key's sequence follow its commits)
   * and the first of its key the stream carried was the key's first pending row of the view: then
   * no row of the key committed before L is pending (that row would be older, and never streamed),
   * and every later row of the key that the view holds follows in the stream. Any other row is
   * recorded ({@link #record}), and so is every later row of its key until the fence; so is every
   * row of a key the relay holds ({@code held}: backing off or parked).
   */
  boolean mayFlow(String key, long seq, boolean keyOrdered, boolean held) {
    KeyState state = keys.get(key);
    if (held) {
      keys.put(key, KeyState.RECORDED);
      return false;
    }
    if (state == KeyState.RECORDED) {
      return false;
    }
    if (state == null) {
      Long first = pending.firstOfKey().get(key);
      state = keyOrdered && first != null && first == seq ? KeyState.FLOWS : KeyState.RECORDED;
      keys.put(key, state);
    }
    if (state == KeyState.FLOWS && keyOrdered && Arrays.binarySearch(pending.seqs(), seq) >= 0) {
      return true;
    }
    keys.put(key, KeyState.RECORDED); // committed after the view, or out of key order: wait
    return false;
  }

  /** A row the stream carried before the fence (published or recorded). */
  void seen(long seq) {
    seen.add(seq);
  }

  /** A row that waits for the fence, and its writer's transaction id (or -1). */
  void record(long seq, long txid) {
    recorded.add(seq);
    if (txid >= 0 && (recordedTxids.size == 0 || recordedTxids.last() != txid)) {
      recordedTxids.add(txid);
    }
  }

  /** The distinct transaction ids of the recorded rows (PostgreSQL). */
  long[] recordedTxids() {
    return Arrays.stream(recordedTxids.toArray()).distinct().toArray();
  }

  /** The recorded rows, in stream (commit) order. */
  long[] recorded() {
    return recorded.toArray();
  }

  /** The pending rows the stream did not carry before the fence, ascending: committed before L. */
  long[] before() {
    long[] streamed = seen.toArray();
    Arrays.sort(streamed);
    long[] all = pending.seqs();
    long[] out = new long[all.length];
    int n = 0;
    for (long seq : all) {
      if (Arrays.binarySearch(streamed, seq) < 0) {
        out[n++] = seq;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** A growing array of longs. */
  private static final class Longs {
    private long[] values = new long[1024];
    private int size;

    void add(long v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    long last() {
      return values[size - 1];
    }

    long[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
