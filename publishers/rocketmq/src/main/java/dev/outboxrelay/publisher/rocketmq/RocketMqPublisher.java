package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RetriablePublishException;
import dev.outboxrelay.core.TopicTemplate;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes outbox messages to RocketMQ: all messages of an aggregateid to one queue (a stable hash
 * of the key), in order, one acknowledged send after the other; different keys are sent in
 * parallel. Topic from a {@link TopicTemplate}, keys = message id, tag = type, user properties per
 * {@link MessageContract} plus {@code aggregateid}. Build with {@link #builder()}. Thread-safe.
 */
public final class RocketMqPublisher implements Publisher {
  private static final Logger LOG = LoggerFactory.getLogger(RocketMqPublisher.class);

  private final DefaultMQProducer producer;
  private final KeySender sender;
  private final ExecutorService senders;

  RocketMqPublisher(DefaultMQProducer producer, KeySender sender, ExecutorService senders) {
    this.producer = producer;
    this.sender = sender;
    this.senders = senders;
  }

  /** A builder; see {@link RocketMqPublisherBuilder} for the settings and their defaults. */
  public static RocketMqPublisherBuilder builder() {
    return new RocketMqPublisherBuilder();
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    return publish(batch, sender);
  }

  /** As {@link #publish}, every message to {@code topic} (the relay's dead-letter topic). */
  @Override
  public CompletionStage<List<PublishResult>> publishTo(String topic, List<OutboxMessage> batch) {
    return publish(batch, sender.withTopics(TopicTemplate.of(topic)));
  }

  @Override
  public java.util.Optional<String> topicProblem(String topic) {
    return java.util.Optional.ofNullable(RocketMqMessages.topicProblem(topic));
  }

  @Override
  public java.util.Optional<String> topicOf(OutboxMessage message) {
    return java.util.Optional.of(sender.topicFor(message));
  }

  private CompletionStage<List<PublishResult>> publish(
      List<OutboxMessage> batch, KeySender sender) {
    Map<String, List<OutboxMessage>> byKey = new LinkedHashMap<>();
    batch.forEach(m -> byKey.computeIfAbsent(m.aggregateId(), k -> new ArrayList<>()).add(m));
    AtomicReference<PublishException> down = new AtomicReference<>();
    List<CompletableFuture<List<PublishResult>>> perKey = new ArrayList<>(byKey.size());
    for (List<OutboxMessage> ofOneKey : byKey.values()) {
      perKey.add(sendAsync(sender, ofOneKey, down));
    }
    return CompletableFuture.allOf(perKey.toArray(CompletableFuture[]::new))
        .thenApply(v -> inInputOrder(batch, perKey));
  }

  private CompletableFuture<List<PublishResult>> sendAsync(
      KeySender sender, List<OutboxMessage> ofOneKey, AtomicReference<PublishException> down) {
    try {
      return CompletableFuture.supplyAsync(() -> sender.send(ofOneKey, down), senders)
          .exceptionally(e -> failAll(ofOneKey, e));
    } catch (RejectedExecutionException e) {
      return CompletableFuture.completedFuture(failAll(ofOneKey, e));
    }
  }

  private static List<PublishResult> failAll(List<OutboxMessage> messages, Throwable e) {
    RetriablePublishException failure =
        new RetriablePublishException("RocketMQ publisher could not send: " + e, e);
    return messages.stream().map(m -> PublishResult.failed(m, failure)).toList();
  }

  private static List<PublishResult> inInputOrder(
      List<OutboxMessage> batch, List<CompletableFuture<List<PublishResult>>> perKey) {
    Map<OutboxMessage, PublishResult> byMessage = new IdentityHashMap<>();
    perKey.forEach(f -> f.join().forEach(r -> byMessage.put(r.message(), r)));
    return batch.stream().map(byMessage::get).toList();
  }

  /** Waits for sends in progress (at most a minute), then shuts the producer down. */
  @Override
  public void close() {
    senders.shutdown();
    try {
      if (!senders.awaitTermination(1, TimeUnit.MINUTES)) {
        senders.shutdownNow();
      }
    } catch (InterruptedException e) {
      senders.shutdownNow();
      Thread.currentThread().interrupt();
    }
    producer.shutdown();
    LOG.info("{} - RocketMQ publisher closed", producer.getProducerGroup());
  }
}
