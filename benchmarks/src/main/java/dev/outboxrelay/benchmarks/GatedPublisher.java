package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;

/**
 * Holds every publish until {@link #open()}, so relays can be started and balanced before the clock
 * starts; then delegates. {@code delegate == null} acknowledges at once (a no-op broker, for the
 * raw database claim rate).
 */
final class GatedPublisher implements Publisher {
  private final Publisher delegate;
  private final CountDownLatch gate = new CountDownLatch(1);

  GatedPublisher(Publisher delegate) {
    this.delegate = delegate;
  }

  void open() {
    gate.countDown();
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    try {
      gate.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (delegate != null) {
      return delegate.publish(batch);
    }
    return CompletableFuture.completedFuture(
        batch.stream().map(PublishResult::acknowledged).toList());
  }

  @Override
  public void sendBuffered() {
    if (delegate != null) {
      delegate.sendBuffered();
    }
  }

  @Override
  public void close() {
    open();
    if (delegate != null) {
      delegate.close();
    }
  }
}
