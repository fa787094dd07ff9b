package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.BatchOutcome;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.rows.PendingRow;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-key delivery rule both relays apply to a round of rows, whatever their source: within a
 * key, messages go out in order and the key stops at its first failure. A malformed row or a
 * message the broker refuses for good parks its key (the reason recorded by the row source); a
 * transient failure backs the key off ({@link KeyBackoffs}); an acknowledged message clears its
 * key's backoff. Later messages of a stopped key are not sent in the round. When nothing at all was
 * acknowledged or refused, the round is an {@link PublishOutcome#OUTAGE}: the row source chooses
 * ({@link OnOutage}) whether its keys back off or the round is retried whole. Acknowledged rows are
 * returned, never marked here: marking is the row source's durable progress.
 */
public final class KeyDelivery {
  private static final Logger log = LoggerFactory.getLogger(KeyDelivery.class);

  /** How a row source records a parked key. */
  @FunctionalInterface
  public interface Parking {
    /** Parks the row's key with the reason; false if the source refused (e.g. a lost lease). */
    boolean park(PendingRow row, String reason) throws SQLException;
  }

  /** What an outage does to the round's keys. */
  public enum OnOutage {
    /** Every failed key backs off (the polling relay: its claims skip them meanwhile). */
    BACK_OFF_KEYS,
    /** No key is touched: the caller retries the whole round after its own backoff (CDC). */
    RETRY_ROUND
  }

  /** The rows of a round, the messages to send, and the keys already stopped in it. */
  public record Round(List<PendingRow> rows, List<OutboxMessage> messages, Set<String> stopped) {}

  /**
   * A round's outcome: the acknowledged messages (of the round's {@code rows}), the keys stopped in
   * the round (parked or failed), and on an outage the failures, for {@link #retrying}.
   */
  public record Applied(
      PublishOutcome outcome,
      List<OutboxMessage> acknowledged,
      List<PendingRow> rows,
      Set<String> stopped,
      List<PublishResult> outage) {

    /** The rows of the acknowledged messages, in the round's order; read on demand. */
    public List<PendingRow> acknowledgedRows() {
      Set<UUID> ids = new HashSet<>();
      acknowledged.forEach(m -> ids.add(m.id()));
      return rows.stream().filter(r -> ids.contains(r.id())).toList();
    }
  }

  private final String name;
  private final RelayListener listener;
  private final KeyBackoffs backoffs;
  private final Parking parking;
  private final OnOutage onOutage;

  public KeyDelivery(
      String name,
      RelayListener listener,
      KeyBackoffs backoffs,
      Parking parking,
      OnOutage onOutage) {
    this.name = name;
    this.listener = listener;
    this.backoffs = backoffs;
    this.parking = parking;
    this.onOutage = onOutage;
  }

  /** The delivery of a relay: its name and listener, with these backoffs. */
  public KeyDelivery(
      EngineSettings relay, KeyBackoffs backoffs, Parking parking, OnOutage onOutage) {
    this(relay.name(), relay.listener(), backoffs, parking, onOutage);
  }

  /**
   * The messages to send from {@code rows}, in order: a malformed row parks its key; rows of keys
   * {@code held} by the caller, and rows after a stopped row of their key, are left out.
   */
  public Round prepare(List<PendingRow> rows, Predicate<String> held) throws SQLException {
    List<OutboxMessage> messages = new ArrayList<>();
    Set<String> stopped = new HashSet<>();
    for (PendingRow row : rows) {
      String key = row.aggregateId();
      if (stopped.contains(key) || held.test(key)) {
        continue;
      }
      if (row.malformed() != null) {
        stopped.add(key);
        park(row, row.malformed());
      } else {
        messages.add(row.message());
      }
    }
    return new Round(rows, messages, stopped);
  }

  /** Applies the broker's results (in publish order) to the round's keys. */
  public Applied apply(Round round, List<PublishResult> results) throws SQLException {
    Set<String> stopped = round.stopped();
    BatchOutcome outcome = BatchOutcome.of(results, stopped);
    for (PublishResult r : outcome.rejected()) {
      park(row(round.rows(), r.message().id()), r.failure().orElseThrow().getMessage());
    }
    List<OutboxMessage> acked = outcome.acknowledged();
    acked.forEach(m -> backoffs.succeeded(m.aggregateId()));
    List<PublishResult> failed = outcome.transientFailures();
    if (!outcome.isOutage()) {
      failed.forEach(r -> backOff(r, true));
      return new Applied(PublishOutcome.PROGRESS, acked, round.rows(), stopped, List.of());
    }
    if (onOutage == OnOutage.RETRY_ROUND) {
      return new Applied(PublishOutcome.OUTAGE, acked, round.rows(), stopped, failed);
    }
    failed.forEach(r -> backOff(r, false));
    log.warn(
        "{} - none of {} messages acknowledged ({} keys back off): {}",
        name,
        results.size(),
        failed.size(),
        failed.get(0).failure().orElseThrow().getMessage());
    return new Applied(PublishOutcome.OUTAGE, acked, round.rows(), stopped, List.of());
  }

  /**
   * An outage round ({@link OnOutage#RETRY_ROUND}) is retried after {@code delay}: tells the
   * listener each key's failure (a daemon's readiness goes down on it) and logs once.
   */
  public void retrying(List<PublishResult> failures, int attempt, Duration delay) {
    for (PublishResult r : failures) {
      Listeners.safely(
          name, () -> listener.onRetry(r.message(), r.failure().orElseThrow(), attempt, delay));
    }
    if (!failures.isEmpty()) {
      log.warn(
          "{} - nothing acknowledged ({} keys failed, attempt {}), retrying in ~{} ms: {}",
          name,
          failures.size(),
          attempt,
          delay.toMillis(),
          failures.get(0).failure().orElseThrow().getMessage());
    }
  }

  private void backOff(PublishResult r, boolean logIt) {
    PublishException failure = r.failure().orElseThrow();
    KeyBackoffs.Attempt attempt = backoffs.failed(r.message().aggregateId());
    if (logIt) {
      log.warn(
          "{} - message {} of key {} failed (attempt {}), retrying in ~{} ms: {}",
          name,
          r.message().id(),
          r.message().aggregateId(),
          attempt.number(),
          attempt.delay().toMillis(),
          failure.getMessage());
    }
    Listeners.safely(
        name, () -> listener.onRetry(r.message(), failure, attempt.number(), attempt.delay()));
  }

  private void park(PendingRow row, String reason) throws SQLException {
    if (!parking.park(row, reason)) {
      return;
    }
    backoffs.succeeded(row.aggregateId());
    log.error("{} - parked key {} at message {}: {}", name, row.aggregateId(), row.id(), reason);
    Listeners.safely(name, () -> listener.onParked(row.aggregateId(), row.message(), reason));
  }

  private static PendingRow row(List<PendingRow> rows, UUID id) {
    for (PendingRow r : rows) {
      if (r.id().equals(id)) {
        return r;
      }
    }
    throw new IllegalStateException("a result for message " + id + " that was not in the round");
  }
}
