package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RelayListener;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls every RelayListener bean; one that throws does not keep the others from being called. */
final class CompositeRelayListener implements RelayListener {
  private static final Logger log = LoggerFactory.getLogger(CompositeRelayListener.class);
  private final List<RelayListener> listeners;

  CompositeRelayListener(List<RelayListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  private void each(Consumer<RelayListener> call) {
    for (RelayListener l : listeners) {
      try {
        call.accept(l);
      } catch (RuntimeException e) {
        log.warn("RelayListener {} failed: {}", l.getClass().getName(), e.toString());
      }
    }
  }

  @Override
  public void onClaimed(int claimed, Duration oldestAge) {
    each(l -> l.onClaimed(claimed, oldestAge));
  }

  @Override
  public void onPublished(List<OutboxMessage> messages, Duration publishLatency) {
    each(l -> l.onPublished(messages, publishLatency));
  }

  @Override
  public void onRetry(OutboxMessage message, PublishException failure, int attempt, Duration d) {
    each(l -> l.onRetry(message, failure, attempt, d));
  }

  @Override
  public void onParked(String aggregateId, OutboxMessage message, String reason) {
    each(l -> l.onParked(aggregateId, message, reason));
  }

  @Override
  public void onDeadLettered(String aggregateId, OutboxMessage message, String topic) {
    each(l -> l.onDeadLettered(aggregateId, message, topic));
  }

  @Override
  public void onDeadLetterFailed(
      String aggregateId,
      dev.outboxrelay.core.PublishException failure,
      int attempt,
      java.time.Duration delay) {
    each(l -> l.onDeadLetterFailed(aggregateId, failure, attempt, delay));
  }

  @Override
  public void onFenced(int refusedMarks) {
    each(l -> l.onFenced(refusedMarks));
  }

  @Override
  public void onLeasesChanged(Set<Integer> buckets) {
    each(l -> l.onLeasesChanged(buckets));
  }

  @Override
  public void onError(Exception error, Duration delay) {
    each(l -> l.onError(error, delay));
  }
}
