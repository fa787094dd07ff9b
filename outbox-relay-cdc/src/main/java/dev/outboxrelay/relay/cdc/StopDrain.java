package dev.outboxrelay.relay.cdc;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The CDC relay's clean stop, around a limit of Debezium's embedded engine: its {@code close()}
 * stops taking records off the change-event queue first and stops the source's producer thread
 * afterwards. A producer blocked on a full queue then never sees the stop; Debezium interrupts it
 * after {@code executor.shutdown.timeout.ms} and logs "Producer failure" at ERROR (PostgreSQL), or
 * stops it seconds late (MariaDB). So, once the relay stops, the batches Debezium still hands over
 * are discarded unmarked (the next start streams them again) until the producer has caught up with
 * the source; the engine's polling thread then waits here, outside Debezium's record processing,
 * until the engine interrupts it. Thread-safe.
 */
final class StopDrain {
  /** Batches this small, in a row, mean the producer has caught up (see {@link #onBatch}). */
  private static final int SMALL_IN_A_ROW = 3;

  private final int smallBatch;
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile long lastBatchNanos;
  private volatile boolean caughtUp;
  private int smallInARow;

  StopDrain(Properties debezium) {
    // A producer that still reads a backlog hands over batches near max.batch.size each poll
    // interval; once it has caught up, only what is being written. A sixteenth of the queue cannot
    // fill it in the moment between the engine's two steps.
    int queue = Integer.parseInt(debezium.getProperty("max.queue.size", "8192"));
    this.smallBatch = Math.max(1, queue / 16);
  }

  /** The relay stops, or a batch in progress ended at the stop: the quiet period starts again. */
  void touch() {
    lastBatchNanos = System.nanoTime();
  }

  /** A batch handed over after the stop: discarded; blocks once the producer has caught up. */
  void onBatch(int size) {
    lastBatchNanos = System.nanoTime();
    synchronized (this) {
      smallInARow = size <= smallBatch ? smallInARow + 1 : 0;
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
  boolean awaitCaughtUp(Duration quiet, Duration max) throws InterruptedException {
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
  void release() {
    released.countDown();
  }
}
