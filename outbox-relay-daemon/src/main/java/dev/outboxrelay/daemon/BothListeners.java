package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RelayListener;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/** Hands every callback to two listeners (a relay takes one): the metrics, then the health. */
final class BothListeners implements RelayListener {
  private final RelayListener first;
  private final RelayListener second;

  BothListeners(RelayListener first, RelayListener second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public void onClaimed(int claimed, Duration oldestAge) {
    first.onClaimed(claimed, oldestAge);
    second.onClaimed(claimed, oldestAge);
  }

  @Override
  public void onPublished(List<OutboxMessage> messages, Duration publishLatency) {
    first.onPublished(messages, publishLatency);
    second.onPublished(messages, publishLatency);
  }

  @Override
  public void onRetry(
      OutboxMessage message, PublishException failure, int attempt, Duration delay) {
    first.onRetry(message, failure, attempt, delay);
    second.onRetry(message, failure, attempt, delay);
  }

  @Override
  public void onParked(String aggregateId, OutboxMessage message, String reason) {
    first.onParked(aggregateId, message, reason);
    second.onParked(aggregateId, message, reason);
  }

  @Override
  public void onDeadLettered(String aggregateId, OutboxMessage message, String topic) {
    first.onDeadLettered(aggregateId, message, topic);
    second.onDeadLettered(aggregateId, message, topic);
  }

  @Override
  public void onDeadLetterFailed(
      String aggregateId,
      dev.outboxrelay.core.PublishException failure,
      int attempt,
      java.time.Duration delay) {
    first.onDeadLetterFailed(aggregateId, failure, attempt, delay);
    second.onDeadLetterFailed(aggregateId, failure, attempt, delay);
  }

  @Override
  public void onFenced(int refusedMarks) {
    first.onFenced(refusedMarks);
    second.onFenced(refusedMarks);
  }

  @Override
  public void onLeasesChanged(Set<Integer> buckets) {
    first.onLeasesChanged(buckets);
    second.onLeasesChanged(buckets);
  }

  @Override
  public void onError(Exception error, Duration delay) {
    first.onError(error, delay);
    second.onError(error, delay);
  }
}
