package dev.outboxrelay.it;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A publisher whose acknowledgements arrive late: the broker has the messages, the relay does not
 * know yet. A kill then lands while batches are sent but not marked, which is what the duplicates
 * bound is about.
 */
public final class SlowAcks implements Publisher {
  private final Publisher publisher;
  private final Duration delay;

  private SlowAcks(Publisher publisher, Duration delay) {
    this.publisher = publisher;
    this.delay = delay;
  }

  public static Publisher of(Publisher publisher, Duration delay) {
    return new SlowAcks(publisher, delay);
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    return publisher
        .publish(batch)
        .thenApplyAsync(
            r -> r, CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS));
  }

  @Override
  public void sendBuffered() {
    publisher.sendBuffered();
  }

  @Override
  public void close() {
    publisher.close();
  }
}
