package dev.outboxrelay.it.polling;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Records how many batches were in flight at once and every key handed over while a batch holding
 * it was still unacknowledged.
 */
final class OverlapRecordingPublisher implements Publisher {
  private final Publisher delegate;
  private final List<Set<String>> inFlight = new ArrayList<>();
  private final List<String> keysInTwoBatches = new ArrayList<>();
  private int maxInFlight;

  OverlapRecordingPublisher(Publisher delegate) {
    this.delegate = delegate;
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    Set<String> keys = new HashSet<>();
    batch.forEach(m -> keys.add(m.aggregateId()));
    synchronized (this) {
      for (Set<String> other : inFlight) {
        other.stream().filter(keys::contains).forEach(keysInTwoBatches::add);
      }
      inFlight.add(keys);
      maxInFlight = Math.max(maxInFlight, inFlight.size());
    }
    return delegate
        .publish(batch)
        .whenComplete(
            (results, error) -> {
              synchronized (this) {
                inFlight.remove(keys);
              }
            });
  }

  synchronized int maxInFlight() {
    return maxInFlight;
  }

  synchronized List<String> keysInTwoBatches() {
    return List.copyOf(keysInTwoBatches);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
