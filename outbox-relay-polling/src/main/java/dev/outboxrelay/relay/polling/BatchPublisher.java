package dev.outboxrelay.relay.polling;

import static dev.outboxrelay.relay.polling.RelayWorker.safely;

import dev.outboxrelay.core.BatchOutcome;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.rows.PendingRow;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a claimed batch and applies the outcome per key: the acknowledged prefix is marked
 * done. Each batch is sent with {@link dev.outboxrelay.core.Publisher#sendBuffered} at once, since
 * its acknowledgements are awaited next (a Kafka producer would hold it back for {@code
 * linger.ms}). At a key's first failure the key stops (backs off, or is parked if the failure can
 * never succeed). {@link #send} runs on the worker thread, {@link #finish} on its {@code -apply}
 * thread.
 */
final class BatchPublisher {
  private static final Logger log = LoggerFactory.getLogger(BatchPublisher.class);

  enum Outcome {
    PROGRESS,
    ALL_FAILED_RETRIABLE
  }

  private final PollingRelayConfig config;
  private final RelayStore store;
  private final KeyBackoff backoff;

  BatchPublisher(PollingRelayConfig config, RelayStore store) {
    this.config = config;
    this.store = store;
    this.backoff = new KeyBackoff(config.backoff());
  }

  /** A batch whose messages were handed to the publisher; its outcome not applied yet. */
  record InFlight(
      List<PendingRow> rows,
      Set<String> stopped,
      List<OutboxMessage> messages,
      CompletionStage<List<PublishResult>> results,
      long startNanos) {}

  /**
   * Parks malformed rows and hands the others to the publisher without waiting; null when nothing
   * was sent (nothing to send, or the leases are about to expire).
   */
  InFlight send(List<PendingRow> rows, Leases leases) throws SQLException {
    List<OutboxMessage> messages = new ArrayList<>();
    Set<String> stopped = new HashSet<>();
    for (PendingRow row : rows) {
      if (row.malformed() != null && stopped.add(row.aggregateId())) {
        park(row, row.malformed(), null);
      } else if (row.malformed() == null && !stopped.contains(row.aggregateId())) {
        messages.add(row.message());
      }
    }
    Instant oldest =
        messages.isEmpty() ? Instant.now() : messages.get(0).createdAt().orElse(Instant.now());
    safely(() -> config.listener().onClaimed(rows.size(), Duration.between(oldest, Instant.now())));
    if (messages.isEmpty() || !leases.validFor(Duration.ofSeconds(1))) {
      return null;
    }
    long start = System.nanoTime();
    CompletionStage<List<PublishResult>> results = config.publisher().publish(messages);
    // The -apply thread waits for these at once: nothing should wait out the client's linger.
    config.publisher().sendBuffered();
    return new InFlight(rows, stopped, messages, results, start);
  }

  /**
   * A batch's acknowledged rows, and its acknowledged messages with the time their acknowledgements
   * took, for the listener once the rows are marked.
   */
  record Acked(List<PendingRow> rows, List<OutboxMessage> messages, Duration latency) {}

  /**
   * Waits for a sent batch's acknowledgements (up to the publish timeout) and applies them: parks
   * and backs off at once; marks the acknowledged rows at once, or, with {@code deferTo}, leaves
   * them there for a later {@link #mark} of several batches.
   */
  Outcome finish(InFlight sent, Leases leases, PendingMarks deferTo)
      throws SQLException, InterruptedException {
    List<PublishResult> results =
        BatchOutcome.await(
            sent.results(), sent.messages(), sent.startNanos() + config.publishTimeout().toNanos());
    Duration latency = Duration.ofNanos(System.nanoTime() - sent.startNanos());
    return apply(sent.rows(), results, sent.stopped(), latency, leases, deferTo);
  }

  private Outcome apply(
      List<PendingRow> rows,
      List<PublishResult> results,
      Set<String> stopped,
      Duration latency,
      Leases leases,
      PendingMarks deferTo)
      throws SQLException {
    BatchOutcome outcome = BatchOutcome.of(results, stopped);
    List<OutboxMessage> done = outcome.acknowledged();
    done.forEach(m -> backoff.succeeded(m.aggregateId()));
    for (PublishResult r : outcome.rejected()) {
      park(row(rows, r.message()), r.failure().orElseThrow().getMessage(), r.message());
    }
    List<PublishResult> retry = outcome.transientFailures();
    boolean outage = outcome.isOutage();
    for (PublishResult r : retry) {
      backOff(r, outage);
    }
    if (outage && !retry.isEmpty()) {
      log.warn(
          "{} - none of {} messages acknowledged ({} keys back off): {}",
          config.name(),
          results.size(),
          retry.size(),
          retry.get(0).failure().orElseThrow().getMessage());
    }
    Set<java.util.UUID> acked = new HashSet<>();
    done.forEach(m -> acked.add(m.id()));
    if (!done.isEmpty()) {
      Acked batch =
          new Acked(rows.stream().filter(r -> acked.contains(r.id())).toList(), done, latency);
      if (deferTo != null) {
        deferTo.add(batch);
      } else {
        mark(List.of(batch), leases);
      }
    }
    return outage ? Outcome.ALL_FAILED_RETRIABLE : Outcome.PROGRESS;
  }

  /**
   * Marks acknowledged batches done in one statement, fenced by the lease, then tells the listener
   * they were published. A refused mark (the lease lost) drops the leases locally.
   */
  void mark(List<Acked> batches, Leases leases) throws SQLException {
    List<PendingRow> rows = new ArrayList<>();
    batches.forEach(b -> rows.addAll(b.rows()));
    int marked = store.markDone(rows);
    if (marked < rows.size()) {
      log.warn(
          "{} - lease lost: {} of {} marks refused by the fence",
          config.name(),
          rows.size() - marked,
          rows.size());
      leases.invalidate();
      safely(() -> config.listener().onFenced(rows.size() - marked));
    }
    for (Acked b : batches) {
      // Never with no messages: an empty call would count as the broker's answer (the daemon's
      // readiness) after an outage.
      safely(() -> config.listener().onPublished(b.messages(), b.latency()));
    }
  }

  private void backOff(PublishResult r, boolean quiet) {
    PublishException failure = r.failure().orElseThrow();
    String key = r.message().aggregateId();
    int attempt = backoff.failed(key);
    Duration delay = backoff.delay(attempt);
    if (!quiet) {
      log.warn(
          "{} - message {} of key {} failed (attempt {}), retrying in ~{} ms: {}",
          config.name(),
          r.message().id(),
          key,
          attempt,
          delay.toMillis(),
          failure.getMessage());
    }
    safely(() -> config.listener().onRetry(r.message(), failure, attempt, delay));
  }

  private void park(PendingRow row, String reason, OutboxMessage message) throws SQLException {
    if (store.park(row, reason)) {
      log.error(
          "{} - parked key {} at message {}: {}",
          config.name(),
          row.aggregateId(),
          row.id(),
          reason);
      backoff.succeeded(row.aggregateId());
      safely(() -> config.listener().onParked(row.aggregateId(), message, reason));
    }
  }

  private static PendingRow row(List<PendingRow> rows, OutboxMessage m) {
    return rows.stream().filter(r -> r.id().equals(m.id())).findFirst().orElseThrow();
  }

  List<String> waitingKeys(int limit) {
    return backoff.waiting(limit);
  }

  long untilNextRetry() {
    return backoff.nanosUntilNextDue();
  }

  /** Keys backing off after a failure; any thread. */
  int retryingKeys() {
    return backoff.size();
  }

  void forgetBackoff() {
    backoff.clear();
  }

  void releaseAll(Leases leases) {
    try {
      leases.release();
      log.info("{} - stopped; leases released", config.name());
      safely(() -> config.listener().onLeasesChanged(java.util.Set.of()));
    } catch (SQLException e) {
      log.warn(
          "{} - stopped; could not release leases (they expire): {}",
          config.name(),
          e.getMessage());
    }
  }
}
