package dev.outboxrelay.it.cdc;

import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.core.ConditionTimeoutException;

/** Passes batches on and records when each message was first acknowledged. */
final class AckTimes implements Publisher {
  private final Publisher publisher;
  private final Map<UUID, Long> first = new ConcurrentHashMap<>();

  AckTimes(Publisher publisher) {
    this.publisher = publisher;
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    return publisher
        .publish(batch)
        .thenApply(
            results -> {
              long now = System.nanoTime();
              results.stream()
                  .filter(PublishResult::isAcknowledged)
                  .forEach(r -> first.putIfAbsent(r.message().id(), now));
              return results;
            });
  }

  @Override
  public void sendBuffered() {
    publisher.sendBuffered();
  }

  /** Waits at most {@code max} until every one of these messages was acknowledged. */
  boolean awaitAll(Collection<UUID> ids, Duration max) {
    try {
      await()
          .atMost(max)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> first.keySet().containsAll(ids));
      return true;
    } catch (ConditionTimeoutException e) {
      return false; // reported by the caller with the figures
    }
  }

  /** From {@code sinceNanos} to the last first-acknowledgement of these messages (all acked). */
  Duration lastAckAfter(Collection<UUID> ids, long sinceNanos) {
    return Duration.ofNanos(ids.stream().mapToLong(first::get).max().orElseThrow() - sinceNanos);
  }

  @Override
  public void close() {
    publisher.close();
  }
}
