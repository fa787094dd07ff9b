package dev.outboxrelay.testing;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Wraps a real publisher and fails chosen messages before they reach the broker; the rest go to the
 * real broker. Keeps the SPI rule that a key stops at its first failure. Counts publish calls.
 */
public final class FaultyPublisher implements Publisher {
  private final Publisher delegate;
  private final Function<OutboxMessage, PublishException> fault;
  private final AtomicInteger calls;

  public FaultyPublisher(Publisher delegate, Function<OutboxMessage, PublishException> fault) {
    this(delegate, fault, new AtomicInteger());
  }

  public FaultyPublisher(
      Publisher delegate, Function<OutboxMessage, PublishException> fault, AtomicInteger calls) {
    this.delegate = delegate;
    this.fault = fault;
    this.calls = calls;
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    calls.incrementAndGet();
    List<PublishResult> failed = new ArrayList<>();
    List<OutboxMessage> pass = new ArrayList<>();
    Set<String> stopped = new HashSet<>();
    for (OutboxMessage m : batch) {
      PublishException e = stopped.contains(m.aggregateId()) ? null : fault.apply(m);
      if (e != null || stopped.contains(m.aggregateId())) {
        stopped.add(m.aggregateId());
        failed.add(
            PublishResult.failed(
                m,
                e != null
                    ? e
                    : new dev.outboxrelay.core.RetriablePublishException(
                        "held: earlier failure of key", null)));
      } else {
        pass.add(m);
      }
    }
    CompletionStage<List<PublishResult>> sent =
        pass.isEmpty() ? CompletableFuture.completedFuture(List.of()) : delegate.publish(pass);
    return sent.thenApply(results -> merge(batch, results, failed));
  }

  private static List<PublishResult> merge(
      List<OutboxMessage> batch, List<PublishResult> sent, List<PublishResult> failed) {
    List<PublishResult> all = new ArrayList<>(sent);
    all.addAll(failed);
    return batch.stream()
        .map(
            m ->
                all.stream().filter(r -> r.message().id().equals(m.id())).findFirst().orElseThrow())
        .toList();
  }

  /** Dead-letter copies go to the real publisher untouched. */
  @Override
  public CompletionStage<List<PublishResult>> publishTo(String topic, List<OutboxMessage> batch) {
    return delegate.publishTo(topic, batch);
  }

  @Override
  public void sendBuffered() {
    delegate.sendBuffered();
  }

  @Override
  public java.util.Optional<String> topicOf(OutboxMessage message) {
    return delegate.topicOf(message);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
