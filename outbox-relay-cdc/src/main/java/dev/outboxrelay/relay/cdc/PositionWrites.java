package dev.outboxrelay.relay.cdc;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable write of the last published batch (its position with its published log, or in the
 * catch-up its log alone), on a thread of its own ({@code <name>-position}), so that it overlaps
 * the next batch's publishing and acknowledgements. One write at a time: the next one starts only
 * after the one before it ended. So at most two batches are published and not yet durable, the one
 * being written and the next: that is the bound on duplicates after a kill. Called under the
 * processor's lock.
 */
final class PositionWrites {
  private static final Logger log = LoggerFactory.getLogger(PositionWrites.class);

  /** A step of the durable write: the engine's committer, or the store. */
  interface Step {
    void run() throws InterruptedException;
  }

  private final String name;
  private final ExecutorService writes;
  private Future<?> writing;

  PositionWrites(String name) {
    this.name = name;
    this.writes =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, name + "-position");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts {@code step} once the write before it ended (whose failure is thrown here). */
  void write(Step step) throws InterruptedException {
    awaitWrite();
    Callable<Void> task =
        () -> {
          step.run();
          return null;
        };
    try {
      writing = writes.submit(task);
    } catch (RejectedExecutionException e) {
      throw new RelayStopping(name); // aborted: nothing more is written
    }
  }

  /** Waits for the write in progress, if any; throws its failure. */
  private void awaitWrite() throws InterruptedException {
    Future<?> w = writing;
    if (w == null) {
      return;
    }
    try {
      w.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof InterruptedException) {
        throw new RelayStopping(name);
      }
      throw new IllegalStateException(cause);
    } finally {
      if (w.isDone()) {
        writing = null;
      }
    }
  }

  /**
   * Waits at most {@code nanos} for the write in progress; a failure is logged, not thrown (the
   * engine that made it is stopping or restarting, or a key's drain waits for it: what the write
   * did not take stays in the published log, which the drain writes first). Returns false on
   * timeout.
   */
  boolean settle(long nanos) throws InterruptedException {
    Future<?> w = writing;
    if (w == null) {
      return true;
    }
    try {
      w.get(nanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof InterruptedException)) { // stopping: nothing failed
        log.warn("{} - a position write failed: {}", name, e.getCause().toString());
      }
    }
    writing = null;
    return true;
  }

  /** Lets the write in progress end (at most 10 s); none starts after. */
  void close() {
    writes.shutdown();
    try {
      writes.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** As a killed process: a write in progress is interrupted, none starts. */
  void abort() {
    writes.shutdownNow();
  }
}
