package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.RelayState.Phase;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.engine.Lifecycle;
import dev.outboxrelay.relay.engine.Listeners;
import dev.outboxrelay.relay.engine.PublishOutcome;
import dev.outboxrelay.relay.engine.Purge;
import dev.outboxrelay.relay.engine.Rounds;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim loop: lease, claim, publish, mark; backs off on failures. One thread.
 *
 * <p>Without a backlog each pass claims every leased bucket and publishes and applies the batch in
 * turn (the shortest commit-to-ack path). Once a claim returns a full batch, the buckets are split
 * into lanes by {@code bucket % lanes}: each pass claims the next lane's oldest rows and hands them
 * to the publisher without waiting, so while one lane's batch is being acknowledged the next lane
 * is claimed and sent, and the database and the broker work at the same time instead of in turn. A
 * lane's batch is applied (marked, backed off, parked) before that lane is claimed again, and a key
 * always falls in one bucket, so no key is ever in two batches at once and per-key order is exactly
 * as with one batch at a time. When a round of lanes returns no full batch, the relay applies every
 * batch in flight and goes back to single claims; it does so as well before it sleeps, rebalances
 * its leases or stops.
 *
 * <p>A sent batch is applied on the relay's {@code -apply} thread ({@link Lanes}), so the mark of
 * one lane's batch overlaps the claim of the next; a lane is claimed again only after its batch was
 * applied, so the rule above holds. A live stream's marks wait in {@link PendingMarks}. With a
 * dead-letter topic, the relay's {@code -dead-letter} thread copies parked keys' messages there
 * ({@link DeadLetterRounds}).
 */
final class RelayWorker implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(RelayWorker.class);
  private static final int MAX_EXCLUDED_KEYS = 1000;

  private final PollingRelayConfig config;
  private final Leases leases;
  private final RelayStore store;
  private final BatchPublisher batches;
  private final Waker waker;
  private final Optional<DeadLetterRounds> deadLetters;

  private final PendingMarks pendingMarks; // a live stream's, if deferMarks
  private final boolean deferMarks; // else each batch is marked as it is applied

  private volatile boolean running = true;
  private volatile boolean aborted;
  private final Lifecycle lifecycle;
  private int outageAttempts;

  /** Per lane, its batch in flight, applied on the {@code -apply} thread. */
  private final Lanes inFlight;

  // Lanes in use: 1 (every bucket in one claim) unless draining a backlog; the lane claimed next.
  private int active = 1;
  private int nextLane;

  /** Claims in a row that returned less than a full batch; a round of them means no backlog. */
  private int shortClaims;

  private long nextRebalanceNanos;
  private final Purge purge;

  RelayWorker(
      PollingRelayConfig config,
      Leases leases,
      RelayStore store,
      BatchPublisher batches,
      Waker waker,
      Optional<DeadLetterRounds> deadLetters,
      Lifecycle lifecycle,
      ThreadFactory applyThread) {
    this.config = config;
    this.pendingMarks = new PendingMarks(config.ticker());
    this.lifecycle = lifecycle;
    this.leases = leases;
    this.store = store;
    this.batches = batches;
    this.waker = waker;
    this.deadLetters = deadLetters;
    // Strict order publishes one sequence prefix at a time: one lane.
    int lanes = config.strictOrder() ? 1 : config.inFlightBatches();
    this.inFlight = new Lanes(lanes, applyThread);
    // One batch in flight is the sequential loop (claim, publish, mark), as documented.
    this.deferMarks = lanes > 1;
    this.purge = new Purge(config.retention(), store::purgePublished, config.ticker());
  }

  @Override
  public void run() {
    log.info(
        "{} - started ({} rows per batch, up to {} in flight, retention: {})",
        config.name(),
        config.batchSize(),
        inFlight.size(),
        config.retention());
    while (running) {
      try {
        Duration idle = cycle();
        if (lifecycle.phase() == Phase.FAILED) {
          reportBuckets(); // a pass succeeded after one failed
        }
        if (!idle.isZero()) {
          waker.await(idle); // cycle() capped an idle wait for follow-ups, not a backoff
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
      finishQuietly();
      batches.releaseAll(leases);
      inFlight.shutdown();
    } else {
      inFlight.shutdownNow(); // as a killed process: a batch being applied may or may not be marked
    }
    lifecycle.tryMoveTo(Phase.STOPPED, "stopped");
  }

  /** On a graceful stop: batches still in flight are applied, so they are not sent again. */
  private void finishQuietly() {
    Exception failed = null;
    try {
      finishAll();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Exception e) {
      failed = e;
    }
    try {
      markPending(); // acknowledged before the last batches, whatever became of those
    } catch (Exception e) {
      failed = failed == null ? e : failed;
    }
    if (failed != null) {
      log.warn(
          "{} - last batches not marked (they will be sent again): {}",
          config.name(),
          failed.toString());
    }
  }

  /** One pass; returns how long to wait before the next (zero: go on at once). */
  private Duration cycle() throws Exception {
    long now = config.ticker().read();
    if (now - nextRebalanceNanos >= 0) {
      Duration outage = finishAll(); // a lane's buckets may change hands
      if (outage != null) {
        return outageWait(outage);
      }
      markPending(); // while the buckets are still ours
      Set<Integer> before = leases.usable();
      leases.rebalance();
      reportBuckets();
      nextRebalanceNanos = now + config.leaseDuration().toNanos() / 3;
      if (!before.equals(leases.usable())) {
        batches.forgetBackoff();
        deadLetters.ifPresent(DeadLetterRounds::forgetBackoff);
        config.listener().onLeasesChanged(leases.usable());
      }
    }
    purge.runIfDue();
    int lane = nextLane;
    nextLane = (lane + 1) % active;
    // The lane's previous batch is applied before its buckets are claimed again (with one lane:
    // every batch, since a single claim covers every bucket).
    Duration outage = active == 1 ? finishAll() : finish(lane);
    if (outage != null) {
      return outageWait(outage);
    }
    if (pendingMarks.due(config.ticker().read(), config.batchSize(), inFlight.size())) {
      markPending();
    }
    List<Integer> buckets = new ArrayList<>();
    for (int b : leases.usable()) {
      if (b % active == lane) {
        buckets.add(b);
      }
    }
    if (!buckets.isEmpty() && !stillHeld(buckets)) {
      return Duration.ZERO; // rebalances first
    }
    List<Long> unmarked = pendingMarks.sequences();
    List<PendingRow> rows =
        buckets.isEmpty()
            ? List.of()
            : store.claim(
                buckets, batches.waitingKeys(MAX_EXCLUDED_KEYS), unmarked, config.batchSize());
    Rounds.Sent sent = rows.isEmpty() ? null : batches.send(rows, leases);
    PendingMarks deferTo = active == 1 && deferMarks ? pendingMarks : null;
    inFlight.submit(lane, sent == null ? null : () -> batches.finish(sent, leases, deferTo));
    if (sent != null && deferTo != null) {
      waker.followUp();
    }
    boolean full = rows.size() == config.batchSize();
    shortClaims = full ? 0 : shortClaims + 1;
    if (!rows.isEmpty() && sent == null) {
      outageAttempts = 0; // only parked rows, or leases about to expire: progress of a kind
    }
    if (active == 1 && full && inFlight.size() > 1) {
      outage = finish(0); // a backlog: from now on claim lane by lane
      markPending(); // lanes mark each batch as it is applied
      active = inFlight.size();
      nextLane = 0;
      shortClaims = 0;
      return outage == null ? Duration.ZERO : outage;
    }
    if (shortClaims < active) {
      return Duration.ZERO; // claim the next lane while this batch is in flight
    }
    // Every lane claimed since the last full batch: apply all, back to single claims, sleep.
    shortClaims = 0;
    active = 1;
    nextLane = 0;
    outage = finishAll();
    if (outage != null) {
      return outageWait(outage);
    }
    Duration wait =
        waker.idleTimeout(
            leases.usable().isEmpty() ? idle(Long.MAX_VALUE) : idle(batches.untilNextRetry()),
            System.nanoTime());
    if (wait.compareTo(Waker.FOLLOW_UP) > 0) {
      markPending(); // no follow-up pass is coming soon
    }
    return wait;
  }

  /**
   * The relay-wide backoff when the broker looks down; the rows acknowledged before it are marked
   * first (that needs the database, not the broker).
   */
  private Duration outageWait(Duration outage) throws SQLException {
    markPending();
    return outage;
  }

  /** Marks every acknowledged row awaiting its mark; kept for the next try if the mark fails. */
  private void markPending() throws SQLException {
    pendingMarks.markAll(batches, leases);
  }

  /**
   * While rows await their mark (a live stream), reads the leases before each claim: without a mark
   * per pass, this is how a relay that lost a bucket (paused past its lease) learns it before it
   * claims that bucket again. Then the rows awaiting their mark are marked (the fence refuses those
   * of the lost buckets) and the leases are forgotten until the next rebalance, now.
   */
  private boolean stillHeld(List<Integer> buckets) throws SQLException {
    if (pendingMarks.isEmpty() || leases.held().containsAll(buckets)) {
      return true;
    }
    markPending();
    leases.invalidate();
    nextRebalanceNanos = config.ticker().read();
    return false;
  }

  /**
   * Applies every batch in flight; returns the relay's backoff if the broker looks down (nothing
   * acknowledged, nothing rejected in any of them).
   */
  private Duration finishAll() throws SQLException, InterruptedException {
    return outcome(inFlight.finishAll());
  }

  /** Applies a lane's batch in flight; returns the relay's backoff if the broker looks down. */
  private Duration finish(int lane) throws SQLException, InterruptedException {
    return outcome(inFlight.finish(lane));
  }

  /**
   * Null unless the broker looks down, then the relay's backoff; progress resets the backoff, no
   * batch (null) leaves it as it is.
   */
  private Duration outcome(PublishOutcome outcome) {
    if (outcome != PublishOutcome.OUTAGE) {
      if (outcome == PublishOutcome.PROGRESS) {
        outageAttempts = 0;
      }
      return null;
    }
    // The broker looks down: back off the whole relay, not only the keys.
    shortClaims = 0;
    Duration delay = Duration.ofMillis(config.backoff().apply(++outageAttempts));
    log.warn(
        "{} - nothing in the batch was acknowledged; backing off {} ms",
        config.name(),
        delay.toMillis());
    return delay;
  }

  /** ACTIVE while the relay owns key buckets, else STANDBY; never out of a stop. */
  private void reportBuckets() {
    boolean owns = !leases.usable().isEmpty();
    lifecycle.tryMoveTo(owns ? Phase.ACTIVE : Phase.STANDBY, owns ? "" : "owns no key buckets");
  }

  private boolean backOff(Exception e) {
    Duration delay = Duration.ofMillis(config.backoff().apply(++outageAttempts));
    log.warn("{} - {}; retrying in {} ms", config.name(), e.toString(), delay.toMillis());
    lifecycle.tryMoveTo(Phase.FAILED, "retrying after " + Secrets.maskText(e.toString()));
    Listeners.safely(config.name(), () -> config.listener().onError(e, delay));
    leases.invalidate();
    nextRebalanceNanos = config.ticker().read();
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
    long untilRebalance = nextRebalanceNanos - config.ticker().read();
    long nanos =
        Math.min(config.pollInterval().toNanos(), Math.min(untilRetryNanos, untilRebalance));
    return Duration.ofNanos(Math.max(nanos, 1_000_000));
  }
}
