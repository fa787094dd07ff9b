package dev.outboxrelay.relay.polling;

import dev.outboxrelay.relay.engine.PublishOutcome;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;

/**
 * The batches in flight, one per lane at most, applied one at a time in the order they were sent on
 * the relay's {@code -apply} thread. A lane's batch is applied (marked, backed off, parked) exactly
 * once, even if applying it failed: a failed lane is claimed again, never applied twice. The worker
 * thread submits and waits; not thread-safe beyond that.
 */
final class Lanes {
  private final List<Future<PublishOutcome>> inFlight;
  private final ExecutorService applier;

  Lanes(int lanes, ThreadFactory applyThread) {
    this.inFlight = new ArrayList<>(Collections.nCopies(lanes, null));
    this.applier = Executors.newSingleThreadExecutor(applyThread);
  }

  int size() {
    return inFlight.size();
  }

  /** Hands the lane's sent batch to the apply thread; null leaves the lane empty. */
  void submit(int lane, Callable<PublishOutcome> apply) {
    inFlight.set(lane, apply == null ? null : applier.submit(apply));
  }

  /**
   * Waits for every lane's batch to be applied; every lane is applied (or dropped, to be claimed
   * again) even if one fails. Returns PROGRESS if any lane made progress, else OUTAGE if any lane
   * had one, else null (nothing was in flight).
   */
  PublishOutcome finishAll() throws SQLException, InterruptedException {
    PublishOutcome combined = null;
    SQLException failed = null;
    for (int lane = 0; lane < inFlight.size(); lane++) {
      try {
        PublishOutcome outcome = finish(lane);
        if (combined != PublishOutcome.PROGRESS && outcome != null) {
          combined = outcome;
        }
      } catch (SQLException e) {
        failed = failed == null ? e : failed;
      }
    }
    if (failed != null) {
      throw failed;
    }
    return combined;
  }

  /** Waits for the lane's batch in flight to be applied; null if it has none. */
  PublishOutcome finish(int lane) throws SQLException, InterruptedException {
    Future<PublishOutcome> applying = inFlight.get(lane);
    if (applying == null) {
      return null;
    }
    try {
      PublishOutcome outcome = applying.get();
      inFlight.set(lane, null);
      return outcome;
    } catch (ExecutionException e) {
      inFlight.set(lane, null); // applied at most once, even if applying failed
      Throwable cause = e.getCause();
      if (cause instanceof SQLException sql) {
        throw sql;
      }
      if (cause instanceof InterruptedException interrupted) {
        throw interrupted;
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** After a graceful stop: no batch is submitted any more. */
  void shutdown() {
    applier.shutdown();
  }

  /** As a killed process: a batch being applied may or may not be marked. */
  void shutdownNow() {
    applier.shutdownNow();
  }
}
