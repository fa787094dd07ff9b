package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.BatchOutcome;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import dev.outboxrelay.relay.engine.KeyDelivery;
import dev.outboxrelay.relay.engine.KeyHolds;
import dev.outboxrelay.relay.engine.Listeners;
import dev.outboxrelay.relay.engine.PublishOutcome;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Publishes rows of the stream or of a key's drain and applies the outcome per key with the
 * engine's {@link KeyDelivery}: held keys are skipped, the acknowledged prefix is logged or marked
 * done, a key's first failure holds it (backs off, or parks it for good). If nothing was
 * acknowledged and every failure is transient, nothing is held: the caller retries the whole round
 * (broker outage). Processor thread only.
 */
final class Publishing {
  private final CdcRelayConfig config;
  private final CdcStore store;
  private final PublishedLog published;
  private final KeyHolds holds;
  private final KeyDelivery delivery;
  private final BooleanSupplier live;
  private List<PublishResult> outage = List.of();

  Publishing(
      CdcRelayConfig config,
      CdcStore store,
      PublishedLog published,
      KeyHolds holds,
      BooleanSupplier live) {
    this.config = config;
    this.store = store;
    this.published = published;
    this.holds = holds;
    this.live = live;
    this.delivery =
        new KeyDelivery(config, holds.backoffs(), this::park, KeyDelivery.OnOutage.RETRY_ROUND);
  }

  /**
   * Publishes the rows and applies the outcome. {@code logged}: the acknowledged rows go to the
   * published log, which the batch's durable write stores (with its position; in the catch-up on
   * its own) ({@link PublishedLog}; {@link LoggedMarks} marks them later), else they are marked
   * done now (a drain, so that a read of the table right after sees them done). A stopped relay
   * sends nothing more ({@link RelayStopping}); what the broker acknowledged before is still
   * marked, as the polling relay does at a graceful stop.
   */
  KeyDelivery.Applied publish(List<PendingRow> rows, boolean logged)
      throws SQLException, InterruptedException {
    KeyDelivery.Round round = delivery.prepare(rows, holds::isHeld);
    if (round.messages().isEmpty()) {
      return new KeyDelivery.Applied(
          PublishOutcome.PROGRESS, List.of(), rows, round.stopped(), List.of());
    }
    if (!live.getAsBoolean()) {
      throw new RelayStopping(config.name());
    }
    long start = System.nanoTime();
    List<PublishResult> results =
        BatchOutcome.publish(config.publisher(), round.messages(), config.publishTimeout());
    Duration latency = Duration.ofNanos(System.nanoTime() - start);
    KeyDelivery.Applied applied = delivery.apply(round, results);
    List<java.util.UUID> acked = applied.acknowledged().stream().map(OutboxMessage::id).toList();
    if (logged) {
      published.add(acked); // logged with the batch's position
    } else {
      store.markDone(acked);
    }
    outage = applied.outage(); // reported by retrying(...), with the caller's attempt and delay
    // As in the polling relay: a round with acknowledgements is an answer from the broker
    // (readiness), even if a key in it failed. Never with an empty list (a listener counts it).
    if (!acked.isEmpty()) {
      Listeners.safely(
          config.name(), () -> config.listener().onPublished(applied.acknowledged(), latency));
    }
    return applied;
  }

  /** After an {@link PublishOutcome#OUTAGE}: the round is retried after {@code delay}. */
  void retrying(int attempt, Duration delay) {
    delivery.retrying(outage, attempt, delay);
    outage = List.of();
  }

  private boolean park(PendingRow row, String reason) throws SQLException {
    store.park(row, reason);
    holds.park(row.aggregateId());
    return true;
  }
}
