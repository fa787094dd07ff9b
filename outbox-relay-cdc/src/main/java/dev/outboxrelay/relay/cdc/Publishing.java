package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import dev.outboxrelay.relay.engine.KeyBackoffs;
import dev.outboxrelay.relay.engine.KeyDelivery;
import dev.outboxrelay.relay.engine.KeyDrains;
import dev.outboxrelay.relay.engine.KeyHolds;
import dev.outboxrelay.relay.engine.PublishOutcome;
import dev.outboxrelay.relay.engine.Rounds;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * Publishes rows of the stream or of a key's drain through the engine's {@link Rounds}: held keys
 * are skipped, the acknowledged prefix is logged (stream) or marked done (drain), a key's first
 * failure holds it (backs off, or parks it for good). If nothing was acknowledged and every failure
 * is transient, nothing is held: the caller retries the whole round (broker outage). Processor
 * thread only.
 */
final class Publishing implements KeyDrains.Table {
  private final CdcRelayConfig config;
  private final CdcStore store;
  private final PublishedLog published;
  private final KeyHolds holds;
  private final PositionWrites writes;
  private final LoggedMarks marks;
  private final Rounds rounds;
  private final BooleanSupplier live;

  Publishing(
      CdcRelayConfig config,
      CdcStore store,
      PublishedLog published,
      KeyHolds holds,
      PositionWrites writes,
      LoggedMarks marks,
      BooleanSupplier live) {
    this.config = config;
    this.store = store;
    this.published = published;
    this.holds = holds;
    this.writes = writes;
    this.marks = marks;
    this.live = live;
    this.rounds =
        new Rounds(
            config,
            new KeyDelivery(
                config, holds.backoffs(), this::park, KeyDelivery.OnOutage.RETRY_ROUND));
  }

  /**
   * Publishes the rows and applies the outcome. {@code logged}: the acknowledged rows go to the
   * published log, which the batch's durable write stores ({@link PublishedLog}; {@link
   * LoggedMarks} marks them later), else they are marked done now (a drain, so that a read of the
   * table right after sees them done). A stopped relay sends nothing more ({@link RelayStopping});
   * what the broker acknowledged before is still marked, as the polling relay does at a graceful
   * stop.
   */
  KeyDelivery.Applied publish(List<PendingRow> rows, boolean logged)
      throws SQLException, InterruptedException {
    KeyDelivery.Round round = rounds.prepare(rows, holds::isHeld);
    if (round.messages().isEmpty()) {
      return new KeyDelivery.Applied(
          PublishOutcome.PROGRESS, List.of(), rows, round.stopped(), List.of());
    }
    if (!live.getAsBoolean()) {
      throw new RelayStopping(config.name());
    }
    Rounds.Delivered delivered = rounds.await(rounds.send(round));
    List<UUID> acked = delivered.acknowledged().stream().map(OutboxMessage::id).toList();
    if (logged) {
      published.add(acked); // logged with the batch's position
    } else {
      store.markDone(acked);
    }
    // As in the polling relay: a round with acknowledgements is an answer from the broker
    // (readiness), even if a key in it failed.
    rounds.published(delivered.acknowledged(), delivered.latency());
    return delivered.applied();
  }

  /** After an outage: the round is retried after {@code delay}. */
  void retrying(KeyDelivery.Applied outage, int attempt, Duration delay) {
    rounds.retrying(outage, attempt, delay);
  }

  /** A drain reads the table: a logged batch still being written would read as pending. */
  @Override
  public void settle() throws SQLException, InterruptedException {
    writes.settle(Long.MAX_VALUE);
    marks.flush();
  }

  @Override
  public List<PendingRow> pendingOfKey(String key, int limit) throws SQLException {
    return store.pendingOfKey(key, limit);
  }

  @Override
  public KeyDelivery.Applied publish(List<PendingRow> rows)
      throws SQLException, InterruptedException {
    return publish(rows, false);
  }

  @Override
  public void retrying(KeyDelivery.Applied outage, KeyBackoffs.Attempt attempt) {
    retrying(outage, attempt.number(), attempt.delay());
  }

  private boolean park(PendingRow row, String reason) throws SQLException {
    store.park(row, reason);
    holds.park(row.aggregateId());
    return true;
  }
}
