package dev.outboxrelay.publisher.kafka;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RetriablePublishException;
import dev.outboxrelay.core.TopicTemplate;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes outbox messages to Kafka: key = aggregateid, headers per {@link MessageContract}, topic
 * from a {@link TopicTemplate}. The producer is idempotent with {@code acks=all}, so a message is
 * acknowledged only once every in-sync replica has it, and messages of one key stay in order. Build
 * with {@link #builder()}. Thread-safe.
 */
public final class KafkaPublisher implements Publisher {
  private static final Logger log = LoggerFactory.getLogger(KafkaPublisher.class);

  private final Supplier<Producer<byte[], byte[]>> producers;
  private final TopicTemplate topics;
  private Producer<byte[], byte[]> producer;
  private boolean closed;
  private ExecutorService flusher; // created at the first sendBuffered()
  private final AtomicBoolean flushQueued = new AtomicBoolean();

  KafkaPublisher(Supplier<Producer<byte[], byte[]>> producers, TopicTemplate topics) {
    this.producers = producers;
    this.topics = topics;
    this.producer = producers.get();
  }

  /** The live producer, replaced after one was abandoned. */
  private synchronized Producer<byte[], byte[]> producer() {
    if (producer == null && !closed) {
      producer = producers.get();
    }
    return producer;
  }

  /**
   * A send failed after the producer's own retries (delivery timeout, or an error the broker
   * returned). Records queued behind it in the same partition could still be delivered after the
   * idempotent producer resets its sequence, overtaking the failed one; so the producer is closed
   * at once (every record still queued fails and is retried by the relay, in order) and a new one
   * takes its place at the next send.
   */
  private void abandon(Producer<byte[], byte[]> failed, Exception cause) {
    synchronized (this) {
      if (producer != failed) {
        return;
      }
      producer = null;
    }
    log.warn(
        "A send failed ({}): closing the producer so that no later record of the partition can"
            + " overtake it; a new producer takes over",
        cause.toString());
    failed.close(Duration.ZERO);
  }

  public static KafkaPublisherBuilder builder() {
    return new KafkaPublisherBuilder();
  }

  @Override
  public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
    return publish(batch, topics, true);
  }

  /**
   * As {@link #publish}, every message to {@code topic} (the relay's dead-letter topic), except
   * that a failed copy does not close the shared producer: copies are one message per parked key
   * with no order among them to protect, and closing the producer would fail the relay's own
   * records in flight.
   */
  @Override
  public CompletionStage<List<PublishResult>> publishTo(String topic, List<OutboxMessage> batch) {
    return publish(batch, TopicTemplate.of(topic), false);
  }

  /**
   * Has the producer send its buffered records now instead of after {@code linger.ms}: {@code
   * producer.flush()} on a thread of this publisher's, so the caller's own wait (bounded by its
   * publish timeout) is not replaced by {@code flush()}'s, which is bounded only by {@code
   * delivery.timeout.ms}. Requests that come while one flush is queued are one. While a flush runs,
   * every record sent meanwhile is sent at once too.
   */
  @Override
  public void sendBuffered() {
    if (!flushQueued.compareAndSet(false, true)) {
      return;
    }
    Producer<byte[], byte[]> p;
    ExecutorService f;
    synchronized (this) {
      // Closed, or abandoned with no successor yet: nothing is buffered (and none is made here).
      if (closed || producer == null) {
        flushQueued.set(false);
        return;
      }
      p = producer;
      if (flusher == null) {
        flusher =
            Executors.newSingleThreadExecutor(
                r -> {
                  Thread t = new Thread(r, "outbox-kafka-flush");
                  t.setDaemon(true);
                  return t;
                });
      }
      f = flusher;
    }
    try {
      f.execute(
          () -> {
            flushQueued.set(false);
            try {
              p.flush();
            } catch (RuntimeException e) {
              // closed, abandoned or interrupted: each record's outcome reaches its own callback
              log.debug("flush ended early: {}", e.toString());
            }
          });
    } catch (RejectedExecutionException e) {
      flushQueued.set(false); // close() shut the flusher down in between: nothing left to send
    }
  }

  /** Kafka's own rule for topic names (legal characters, length, not "." or ".."). */
  @Override
  public java.util.Optional<String> topicProblem(String topic) {
    return topicNameProblem(topic);
  }

  static java.util.Optional<String> topicNameProblem(String topic) {
    try {
      org.apache.kafka.common.internals.Topic.validate(topic);
      return java.util.Optional.empty();
    } catch (org.apache.kafka.common.errors.InvalidTopicException e) {
      return java.util.Optional.of("is not a Kafka topic name: " + e.getMessage());
    }
  }

  @Override
  public java.util.Optional<String> topicOf(OutboxMessage message) {
    return java.util.Optional.of(topics.topicFor(message));
  }

  private CompletionStage<List<PublishResult>> publish(
      List<OutboxMessage> batch, TopicTemplate topics, boolean ordered) {
    List<CompletableFuture<PublishResult>> results = new ArrayList<>(batch.size());
    Set<String> failedKeys = new HashSet<>();
    PublishException unreachable = null;
    for (OutboxMessage m : batch) {
      if (unreachable != null) {
        results.add(CompletableFuture.completedFuture(PublishResult.failed(m, unreachable)));
      } else if (failedKeys.contains(m.aggregateId())) {
        results.add(skipped(m));
      } else {
        CompletableFuture<PublishResult> r = send(m, topics, ordered);
        results.add(r);
        // Errors found before anything was sent (too large, no metadata) complete at once: stop
        // the key so no later message of it can overtake this one; if the broker could not even
        // be reached, fail the rest of the batch now instead of blocking on each send.
        PublishException early = r.isDone() ? r.join().failure().orElse(null) : null;
        if (early != null) {
          failedKeys.add(m.aggregateId());
          unreachable = early.isRetriable() ? early : null;
        }
      }
    }
    return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
        .thenApply(v -> results.stream().map(CompletableFuture::join).toList());
  }

  /** {@code ordered}: a late failure abandons the producer (see {@link #abandon}). */
  private CompletableFuture<PublishResult> send(
      OutboxMessage m, TopicTemplate topics, boolean ordered) {
    CompletableFuture<PublishResult> result = new CompletableFuture<>();
    Producer<byte[], byte[]> p = producer();
    if (p == null) {
      result.complete(
          PublishResult.failed(m, new RetriablePublishException("the publisher is closed", null)));
      return result;
    }
    AtomicBoolean sending = new AtomicBoolean(true);
    try {
      p.send(
          record(m, topics),
          (metadata, error) -> {
            if (error != null && !sending.get() && ordered) {
              abandon(p, error);
            }
            result.complete(
                error == null
                    ? PublishResult.acknowledged(m)
                    : PublishResult.failed(m, KafkaErrors.map(m, error)));
          });
      sending.set(false);
    } catch (RuntimeException e) {
      // send() throws for a closed or fenced producer.
      result.complete(PublishResult.failed(m, KafkaErrors.map(m, e)));
    }
    return result;
  }

  private static CompletableFuture<PublishResult> skipped(OutboxMessage m) {
    return CompletableFuture.completedFuture(
        PublishResult.failed(
            m,
            new RetriablePublishException(
                "not sent: an earlier message of key " + m.aggregateId() + " in this batch failed",
                null)));
  }

  ProducerRecord<byte[], byte[]> record(OutboxMessage m) {
    return record(m, topics);
  }

  private static ProducerRecord<byte[], byte[]> record(OutboxMessage m, TopicTemplate topics) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(MessageContract.HEADER_ID, utf8(m.id().toString()));
    headers.add(MessageContract.HEADER_TYPE, utf8(m.type()));
    headers.add(MessageContract.HEADER_AGGREGATE_TYPE, utf8(m.aggregateType()));
    m.sequence()
        .ifPresent(seq -> headers.add(MessageContract.HEADER_SEQUENCE, utf8(Long.toString(seq))));
    m.traceparent().ifPresent(t -> headers.add(MessageContract.HEADER_TRACEPARENT, utf8(t)));
    for (Map.Entry<String, String> h : m.headers().entrySet()) {
      headers.add(h.getKey(), utf8(h.getValue()));
    }
    return new ProducerRecord<>(
        topics.topicFor(m), null, utf8(m.aggregateId()), m.payload(), headers);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Flushes and closes the producer. */
  @Override
  public void close() {
    Producer<byte[], byte[]> p;
    ExecutorService f;
    synchronized (this) {
      closed = true;
      p = producer;
      producer = null;
      f = flusher;
    }
    if (p != null) {
      p.close(); // completes what is in flight, so a running flush() returns
    }
    if (f != null) {
      f.shutdownNow();
    }
  }
}
