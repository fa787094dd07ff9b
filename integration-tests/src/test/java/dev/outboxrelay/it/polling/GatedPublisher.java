package dev.outboxrelay.it.polling;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Holds the first publish call until opened, as a relay paused mid-batch would be. */
final class GatedPublisher implements Publisher {
  private final Publisher delegate;
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch gate = new CountDownLatch(1);
  final AtomicInteger calls = new AtomicInteger();
  final List<String> keysAfterFirstCall = new java.util.concurrent.CopyOnWriteArrayList<>();

  GatedPublisher(Publisher delegate) {
    this.delegate = delegate;
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    if (calls.incrementAndGet() > 1) {
      batch.forEach(m -> keysAfterFirstCall.add(m.aggregateId()));
    }
    held.countDown();
    try {
      gate.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return delegate.publish(batch);
  }

  void awaitHeld() throws InterruptedException {
    held.await(30, TimeUnit.SECONDS);
  }

  void open() {
    gate.countDown();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
