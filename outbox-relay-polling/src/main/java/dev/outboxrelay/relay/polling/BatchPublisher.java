package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.engine.KeyBackoffs;
import dev.outboxrelay.relay.engine.KeyDelivery;
import dev.outboxrelay.relay.engine.Listeners;
import dev.outboxrelay.relay.engine.PublishOutcome;
import dev.outboxrelay.relay.engine.Rounds;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a claimed batch through the engine's {@link Rounds} and applies the outcome per key:
 * the acknowledged prefix is marked done, fenced by the lease. {@link #send} runs on the worker
 * thread, {@link #finish} on its {@code -apply} thread.
 */
final class BatchPublisher {
  private static final Logger log = LoggerFactory.getLogger(BatchPublisher.class);

  private final PollingRelayConfig config;
  private final RelayStore store;
  private final KeyBackoffs backoffs;
  private final Rounds rounds;

  BatchPublisher(PollingRelayConfig config, RelayStore store) {
    this.config = config;
    this.store = store;
    this.backoffs = new KeyBackoffs(config.backoff(), config.ticker());
    this.rounds =
        new Rounds(
            config,
            new KeyDelivery(config, backoffs, store::park, KeyDelivery.OnOutage.BACK_OFF_KEYS));
  }

  /**
   * Parks malformed rows and hands the others to the publisher without waiting; null when nothing
   * was sent (nothing to send, or the leases are about to expire).
   */
  Rounds.Sent send(List<PendingRow> rows, Leases leases) throws SQLException {
    KeyDelivery.Round round = rounds.prepare(rows, key -> false); // the claim skipped held keys
    List<OutboxMessage> messages = round.messages();
    Instant oldest =
        messages.isEmpty() ? Instant.now() : messages.get(0).createdAt().orElse(Instant.now());
    Listeners.safely(
        config.name(),
        () -> config.listener().onClaimed(rows.size(), Duration.between(oldest, Instant.now())));
    if (messages.isEmpty() || !leases.validFor(Duration.ofSeconds(1))) {
      return null;
    }
    return rounds.send(round);
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
  PublishOutcome finish(Rounds.Sent sent, Leases leases, PendingMarks deferTo)
      throws SQLException, InterruptedException {
    Rounds.Delivered delivered = rounds.await(sent);
    KeyDelivery.Applied applied = delivered.applied();
    if (!applied.acknowledged().isEmpty()) {
      Acked batch =
          new Acked(applied.acknowledgedRows(), applied.acknowledged(), delivered.latency());
      if (deferTo != null) {
        deferTo.add(batch);
      } else {
        mark(List.of(batch), leases);
      }
    }
    return applied.outcome();
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
      Listeners.safely(config.name(), () -> config.listener().onFenced(rows.size() - marked));
    }
    batches.forEach(b -> rounds.published(b.messages(), b.latency()));
  }

  List<String> waitingKeys(int limit) {
    return backoffs.waiting(limit);
  }

  long untilNextRetry() {
    return backoffs.nanosUntilNextDue();
  }

  /** Keys backing off after a failure; any thread. */
  int retryingKeys() {
    return backoffs.size();
  }

  void forgetBackoff() {
    backoffs.clear();
  }

  void releaseAll(Leases leases) {
    try {
      leases.release();
      log.info("{} - stopped; leases released", config.name());
      Listeners.safely(config.name(), () -> config.listener().onLeasesChanged(java.util.Set.of()));
    } catch (SQLException e) {
      log.warn(
          "{} - stopped; could not release leases (they expire): {}",
          config.name(),
          e.getMessage());
    }
  }
}
