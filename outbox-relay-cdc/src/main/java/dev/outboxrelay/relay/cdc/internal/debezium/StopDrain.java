package dev.outboxrelay.relay.cdc.internal.debezium;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Invariant: after the relay stops, the engine is closed only once the source's reader has caught
 * up with the source (or the caller's bound ran out), and from then on the engine's polling thread
 * is held here, outside Debezium's record processing, until the close interrupts it. The batches
 * handed over meanwhile are discarded by the caller, unpublished and with no position stored: the
 * next start streams them again.
 *
 * <p>Debezium behaviour it answers: {@code AsyncEmbeddedEngine#stopConnector} first stops the
 * record service that takes batches off the connector's {@code ChangeEventQueue}, and stops the
 * source task (and its reader) afterwards. A reader blocked on a full queue then never sees the
 * stop: Debezium interrupts it after {@code executor.shutdown.timeout.ms} and logs "Producer
 * failure" at ERROR (PostgreSQL), or the stop takes seconds more (MariaDB). Thread-safe.
 */
public final class StopDrain {
  /**
   * Batches under a quarter of max.batch.size, this many in a row, mean the producer has caught up
   * (see {@link #onBatch}).
   */
  private static final int SMALL_IN_A_ROW = 3;

  private final int smallBatch;
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile long lastBatchNanos;
  private volatile boolean caughtUp;
  private int smallInARow;

  /**
   * @param debezium the settings the engine really runs with ({@link EngineProperties#of}: the
   *     relay's merged with the user's), so {@code max.batch.size} is the relay's batchSize
   */
  public StopDrain(Properties debezium) {
    // Debezium's poll hands over a full max.batch.size as soon as the queue holds one: while the
    // producer is blocked on a full queue, or outruns the discarding consumer, every batch is full.
    // A batch under a quarter of max.batch.size means the poll emptied the queue and the producer
    // added less than a quarter batch while it waited; three in a row, and it reads no backlog.
    // The queue (at least 4 x max.batch.size by default, always larger than a batch) then has room
    // for what it reads between the engine's two close steps. Compared against the batch size in
    // force, not against max.queue.size, which is many batches deep.
    int batch = Integer.parseInt(debezium.getProperty("max.batch.size", "2048").trim());
    this.smallBatch = Math.max(1, batch / 4); // tiny batches: only the quiet period counts
  }

  /** The relay stops, or a batch in progress ended at the stop: the quiet period starts again. */
  public void touch() {
    lastBatchNanos = System.nanoTime();
  }

  /** A batch handed over after the stop: discarded; blocks once the producer has caught up. */
  public void onBatch(int size) {
    lastBatchNanos = System.nanoTime();
    synchronized (this) {
      smallInARow = size < smallBatch ? smallInARow + 1 : 0;
      caughtUp |= smallInARow >= SMALL_IN_A_ROW;
    }
    if (caughtUp) {
      try {
        released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // the engine's close(): its polling thread ends
      }
    }
  }

  /**
   * Waits until the producer has caught up (small batches, or none for {@code quiet}), at most
   * {@code max}.
   *
   * @return false if it was still reading a backlog at {@code max}
   */
  public boolean awaitCaughtUp(Duration quiet, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!caughtUp && System.nanoTime() - lastBatchNanos < quiet.toNanos()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
    return true;
  }

  /** After the engine closed: a polling thread still waiting in {@link #onBatch} returns. */
  public void release() {
    released.countDown();
  }
}
