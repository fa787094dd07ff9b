package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.internal.PendingRow;
import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The claim loop: lease, claim, publish, mark; backs off on failures. One thread. */
final class RelayWorker implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(RelayWorker.class);
  private static final int MAX_EXCLUDED_KEYS = 1000;

  private final PollingRelayConfig config;
  private final Leases leases;
  private final RelayStore store;
  private final BatchPublisher batches;
  private final Waker waker;
  private final IntervalFunction outageBackoff;
  private volatile boolean running = true;
  private volatile boolean aborted;
  private int outageAttempts;
  private long nextRebalanceNanos;
  private long nextPurgeNanos;

  RelayWorker(
      PollingRelayConfig config,
      Leases leases,
      RelayStore store,
      BatchPublisher batches,
      Waker waker) {
    this.config = config;
    this.leases = leases;
    this.store = store;
    this.batches = batches;
    this.waker = waker;
    this.outageBackoff = config.backoff();
  }

  @Override
  public void run() {
    log.info(
        "{} - started ({} rows per batch, retention: {})",
        config.name(),
        config.batchSize(),
        config.retention());
    while (running) {
      try {
        Duration idle = cycle();
        if (!idle.isZero()) {
          waker.await(idle);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (Exception e) {
        if (!backOff(e)) {
          break;
        }
      }
    }
    if (!aborted) {
      batches.releaseAll(leases);
    }
  }

  /** One pass; returns how long to wait before the next (zero: go on at once). */
  private Duration cycle() throws Exception {
    long now = System.nanoTime();
    if (now - nextRebalanceNanos >= 0) {
      Set<Integer> before = leases.usable();
      leases.rebalance();
      nextRebalanceNanos = now + config.leaseDuration().toNanos() / 3;
      if (!before.equals(leases.usable())) {
        batches.forgetBackoff();
        config.listener().onLeasesChanged(leases.usable());
      }
    }
    if (config.retention().keepsRows() && now - nextPurgeNanos >= 0) {
      Duration window = config.retention().window().orElseThrow();
      int deleted;
      do { // bounded batches, so no statement holds many locks for long
        deleted = store.purgePublished(window, 1000);
      } while (deleted == 1000);
      nextPurgeNanos = now + Math.min(Duration.ofSeconds(30).toNanos(), window.toNanos());
    }
    List<Integer> buckets = new ArrayList<>(leases.usable());
    if (buckets.isEmpty()) {
      return idle(Long.MAX_VALUE);
    }
    List<PendingRow> rows =
        store.claim(buckets, batches.waitingKeys(MAX_EXCLUDED_KEYS), config.batchSize());
    if (rows.isEmpty()) {
      return idle(batches.untilNextRetry());
    }
    BatchPublisher.Outcome outcome = batches.publish(rows, leases);
    if (outcome == BatchPublisher.Outcome.ALL_FAILED_RETRIABLE) {
      // The broker looks down: back off the whole relay, not only the keys.
      Duration delay = Duration.ofMillis(outageBackoff.apply(++outageAttempts));
      log.warn(
          "{} - nothing in the batch was acknowledged; backing off {} ms",
          config.name(),
          delay.toMillis());
      return delay;
    }
    outageAttempts = 0;
    return rows.size() < config.batchSize() ? idle(batches.untilNextRetry()) : Duration.ZERO;
  }

  private boolean backOff(Exception e) {
    Duration delay = Duration.ofMillis(outageBackoff.apply(++outageAttempts));
    log.warn("{} - {}; retrying in {} ms", config.name(), e.toString(), delay.toMillis());
    safely(() -> config.listener().onError(e, delay));
    leases.invalidate();
    nextRebalanceNanos = System.nanoTime();
    try {
      waker.await(delay);
      return true;
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  void stop() {
    running = false;
    waker.wake();
  }

  /** Stops without releasing anything, as a killed process would. */
  void abort() {
    aborted = true;
    stop();
  }

  /**
   * Sleep until the poll interval, the next key retry or the next rebalance, whichever is first.
   */
  private Duration idle(long untilRetryNanos) {
    long untilRebalance = nextRebalanceNanos - System.nanoTime();
    long nanos =
        Math.min(config.pollInterval().toNanos(), Math.min(untilRetryNanos, untilRebalance));
    return Duration.ofNanos(Math.max(nanos, 1_000_000));
  }

  static void safely(Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      log.warn("Relay listener threw {}", e.toString());
    }
  }
}
