package dev.outboxrelay.testing;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RetriablePublishException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A {@link Publisher} that keeps what it acknowledges in memory, for unit tests of relays: a fake,
 * not a stand-in for a broker in integration tests. Failures can be injected per message; it keeps
 * the SPI rule that a key stops at its first failure within a batch. Thread-safe.
 */
public final class InMemoryPublisher implements Publisher {
  private final List<OutboxMessage> acknowledged = new CopyOnWriteArrayList<>();
  private volatile Function<OutboxMessage, PublishException> failure = m -> null;
  private volatile boolean closed;

  /** Fails messages for which the function returns an exception; {@code null} means succeed. */
  public InMemoryPublisher failWith(Function<OutboxMessage, PublishException> failure) {
    this.failure = failure;
    return this;
  }

  /** Fails every message as a broker outage would (retriable), or stops doing so. */
  public InMemoryPublisher down(boolean down) {
    return failWith(
        down ? m -> new RetriablePublishException("broker down (injected)", null) : m -> null);
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    List<PublishResult> results = new ArrayList<>(batch.size());
    Set<String> failedKeys = new HashSet<>();
    for (OutboxMessage m : batch) {
      PublishException e =
          closed ? new RetriablePublishException("publisher closed", null) : failure.apply(m);
      if (e == null && failedKeys.contains(m.aggregateId())) {
        e = new RetriablePublishException("not sent: an earlier message of its key failed", null);
      }
      if (e == null) {
        acknowledged.add(m);
        results.add(PublishResult.acknowledged(m));
      } else {
        failedKeys.add(m.aggregateId());
        results.add(PublishResult.failed(m, e));
      }
    }
    return CompletableFuture.completedFuture(results);
  }

  /** Every acknowledged message, in acknowledgement order (duplicates included). */
  public List<OutboxMessage> acknowledged() {
    return List.copyOf(acknowledged);
  }

  @Override
  public void close() {
    closed = true;
  }
}
