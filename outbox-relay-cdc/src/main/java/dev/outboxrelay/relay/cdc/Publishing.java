package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.BatchOutcome;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes rows in order and applies the outcome per key: the acknowledged prefix is marked done;
 * at a key's first failure the key is held (backs off, or is parked for good). If nothing was
 * acknowledged and every failure is transient, nothing is held: the caller retries the whole batch
 * (broker outage). Processor thread only.
 */
final class Publishing {
  private static final Logger log = LoggerFactory.getLogger(Publishing.class);

  enum Outcome {
    PROGRESS,
    OUTAGE
  }

  private final CdcRelayConfig config;
  private final CdcStore store;
  private final PublishedLog published;
  private final KeyHolds holds;

  private final java.util.function.BooleanSupplier live;
  private Duration latency = Duration.ZERO;
  private List<PublishResult> outage = List.of();

  Publishing(
      CdcRelayConfig config,
      CdcStore store,
      PublishedLog published,
      KeyHolds holds,
      java.util.function.BooleanSupplier live) {
    this.config = config;
    this.store = store;
    this.published = published;
    this.holds = holds;
    this.live = live;
  }

  /**
   * A stopped relay sends nothing more. What the broker acknowledged before is still marked (as the
   * polling relay does at a graceful stop): otherwise up to a batch would go out again after every
   * clean stop. The caller stores the batch's position only after this returned.
   */
  private void checkLive() throws InterruptedException {
    if (!live.getAsBoolean()) {
      throw new RelayStopping(config.name());
    }
  }

  /**
   * Publishes the rows and applies the outcome. {@code logged}: the acknowledged rows go to the
   * published log, which the batch's durable write stores (with its position; in the catch-up on
   * its own) ({@link PublishedLog}; {@link Retention} marks them later), else they are marked done
   * now (a drain, so that a read of the table right after sees them done).
   */
  Outcome publish(List<PendingRow> rows, boolean logged) throws SQLException, InterruptedException {
    List<OutboxMessage> send = new ArrayList<>();
    Set<String> stopped = new HashSet<>();
    for (PendingRow row : rows) {
      if (holds.isHeld(row.aggregateId()) || stopped.contains(row.aggregateId())) {
        continue;
      }
      if (row.malformed() != null) {
        stopped.add(row.aggregateId());
        park(row, row.malformed());
      } else {
        send.add(row.message());
      }
    }
    if (send.isEmpty()) {
      return Outcome.PROGRESS;
    }
    checkLive();
    long start = System.nanoTime();
    List<PublishResult> results =
        BatchOutcome.publish(config.publisher(), send, config.publishTimeout());
    latency = Duration.ofNanos(System.nanoTime() - start);
    return apply(rows, results, stopped, logged);
  }

  private Outcome apply(
      List<PendingRow> rows, List<PublishResult> results, Set<String> stopped, boolean logged)
      throws SQLException {
    BatchOutcome outcome = BatchOutcome.of(results, stopped);
    for (PublishResult r : outcome.rejected()) {
      park(
          rows.stream().filter(x -> x.id().equals(r.message().id())).findFirst().orElseThrow(),
          r.failure().orElseThrow().getMessage());
    }
    List<java.util.UUID> acknowledged =
        outcome.acknowledged().stream().map(OutboxMessage::id).toList();
    if (logged) {
      published.add(acknowledged); // logged with the batch's position
    } else {
      store.markDone(acknowledged);
    }
    List<PublishResult> transient_ = outcome.transientFailures();
    if (outcome.isOutage()) {
      outage = transient_; // reported by retrying(...), with the caller's attempt and delay
      return Outcome.OUTAGE;
    }
    for (PublishResult r : transient_) {
      Duration delay = holds.block(r.message().aggregateId());
      int attempt = holds.attempts(r.message().aggregateId());
      safely(
          () -> config.listener().onRetry(r.message(), r.failure().orElseThrow(), attempt, delay));
      log.warn(
          "{} - message {} of key {} failed, key retried in ~{} ms: {}",
          config.name(),
          r.message().id(),
          r.message().aggregateId(),
          delay.toMillis(),
          r.failure().orElseThrow().getMessage());
    }
    // Last, as in the polling relay: a round with acknowledgements is an answer from the broker
    // (readiness), even if a key in it failed. Never with an empty list (a listener counts it).
    List<OutboxMessage> done = outcome.acknowledged();
    if (!done.isEmpty()) {
      Duration took = latency;
      safely(() -> config.listener().onPublished(done, took));
    }
    return Outcome.PROGRESS;
  }

  /**
   * After {@link Outcome#OUTAGE}: the round is retried after {@code delay}. Tells the listener each
   * key's failure, as the polling relay does (the daemon's readiness goes down on it), and logs
   * once.
   */
  void retrying(int attempt, Duration delay) {
    for (PublishResult r : outage) {
      safely(
          () -> config.listener().onRetry(r.message(), r.failure().orElseThrow(), attempt, delay));
    }
    if (!outage.isEmpty()) {
      log.warn(
          "{} - nothing acknowledged ({} keys failed, attempt {}), retrying in ~{} ms: {}",
          config.name(),
          outage.size(),
          attempt,
          delay.toMillis(),
          outage.get(0).failure().orElseThrow().getMessage());
    }
    outage = List.of();
  }

  private void safely(Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException e) {
      log.warn("{} - relay listener threw {}", config.name(), e.toString());
    }
  }

  private void park(PendingRow row, String reason) throws SQLException {
    store.park(row, reason);
    holds.park(row.aggregateId());
    safely(() -> config.listener().onParked(row.aggregateId(), row.message(), reason));
    log.error(
        "{} - parked key {} at message {}: {}", config.name(), row.aggregateId(), row.id(), reason);
  }
}
