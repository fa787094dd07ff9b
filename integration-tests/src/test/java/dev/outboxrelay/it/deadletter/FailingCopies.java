package dev.outboxrelay.it.deadletter;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RetriablePublishException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/** Fails the first dead-letter copies retriably (as a broker outage would), then passes them on. */
final class FailingCopies implements Publisher {
  private final Publisher delegate;
  private final AtomicInteger failuresLeft;

  FailingCopies(Publisher delegate, AtomicInteger failuresLeft) {
    this.delegate = delegate;
    this.failuresLeft = failuresLeft;
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    return delegate.publish(batch);
  }

  @Override
  public CompletionStage<List<PublishResult>> publishTo(String topic, List<OutboxMessage> batch) {
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      RetriablePublishException down = new RetriablePublishException("injected outage", null);
      return CompletableFuture.completedFuture(
          batch.stream().map(m -> PublishResult.failed(m, down)).toList());
    }
    return delegate.publishTo(topic, batch);
  }

  @Override
  public Optional<String> topicOf(OutboxMessage message) {
    return delegate.topicOf(message);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
