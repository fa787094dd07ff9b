package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.BatchOutcome;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.rows.PendingRow;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

/**
 * Sends rounds of rows through the relay's publisher and applies their outcome with the relay's
 * {@link KeyDelivery}, the same way for every row source: a round is handed to the publisher at
 * once ({@link dev.outboxrelay.core.Publisher#sendBuffered}: its acknowledgements are awaited next,
 * nothing should wait out a client's linger), awaited up to the publish timeout (what did not
 * answer by then is a transient failure), and its acknowledged messages are told to the listener
 * only after the source made them durable. Publish timeouts and latencies are real time: they wait
 * on the client's futures.
 */
public final class Rounds {
  private final EngineSettings relay;
  private final KeyDelivery delivery;

  public Rounds(EngineSettings relay, KeyDelivery delivery) {
    this.relay = relay;
    this.delivery = delivery;
  }

  /** A round handed to the publisher; its outcome not applied yet. */
  public record Sent(
      KeyDelivery.Round round, CompletionStage<List<PublishResult>> results, long startNanos) {}

  /** An applied round, with the time its acknowledgements took. */
  public record Delivered(KeyDelivery.Applied applied, Duration latency) {
    public List<OutboxMessage> acknowledged() {
      return applied.acknowledged();
    }

    public PublishOutcome outcome() {
      return applied.outcome();
    }
  }

  /** The messages to send of {@code rows}, keys {@code held} by the source left out. */
  public KeyDelivery.Round prepare(List<PendingRow> rows, Predicate<String> held)
      throws SQLException {
    return delivery.prepare(rows, held);
  }

  /** Hands a prepared round's messages to the publisher without waiting. */
  public Sent send(KeyDelivery.Round round) {
    long start = System.nanoTime();
    CompletionStage<List<PublishResult>> results = relay.publisher().publish(round.messages());
    relay.publisher().sendBuffered();
    return new Sent(round, results, start);
  }

  /** Waits for a sent round's acknowledgements, up to the publish timeout, and applies them. */
  public Delivered await(Sent sent) throws SQLException, InterruptedException {
    List<PublishResult> results =
        BatchOutcome.await(
            sent.results(),
            sent.round().messages(),
            sent.startNanos() + relay.publishTimeout().toNanos());
    Duration latency = Duration.ofNanos(System.nanoTime() - sent.startNanos());
    return new Delivered(delivery.apply(sent.round(), results), latency);
  }

  /**
   * Tells the listener a round's acknowledged messages were published, once the source made them
   * durable. Never with none: an empty call would count as the broker's answer (a daemon's
   * readiness) after an outage.
   */
  public void published(List<OutboxMessage> acknowledged, Duration latency) {
    if (!acknowledged.isEmpty()) {
      Listeners.safely(relay.name(), () -> relay.listener().onPublished(acknowledged, latency));
    }
  }

  /** After a {@link KeyDelivery.OnOutage#RETRY_ROUND} outage: see {@link KeyDelivery#retrying}. */
  public void retrying(KeyDelivery.Applied outage, int attempt, Duration delay) {
    delivery.retrying(outage.outage(), attempt, delay);
  }
}
