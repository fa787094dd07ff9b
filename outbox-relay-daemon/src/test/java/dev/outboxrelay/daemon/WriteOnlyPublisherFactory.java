package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.PublisherFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A fake publisher, {@value #TYPE}, on the daemon's test class path only: it acknowledges every
 * message and, like a third party's publisher that does not override {@link
 * PublisherFactory#brokerCheck}, offers no broker reader.
 */
public final class WriteOnlyPublisherFactory implements PublisherFactory {
  static final String TYPE = "write-only";

  @Override
  public String name() {
    return TYPE;
  }

  @Override
  public Publisher create(Map<String, String> settings) {
    return new Publisher() {
      @Override
      public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
        return CompletableFuture.completedFuture(
            batch.stream().map(PublishResult::acknowledged).toList());
      }

      @Override
      public void close() {}
    };
  }
}
