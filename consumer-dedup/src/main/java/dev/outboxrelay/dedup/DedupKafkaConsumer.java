package dev.outboxrelay.dedup;

import dev.outboxrelay.dedup.internal.Backoff;
import dev.outboxrelay.dedup.internal.BatchSizer;
import dev.outboxrelay.dedup.internal.OffsetCommitter;
import dev.outboxrelay.dedup.internal.PartitionProgress;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka consumer loop on its own thread that runs the handler and the dedup records of each
 * polled batch of a partition in one database transaction (batch mode, the default; or one
 * transaction per record) and commits offsets to Kafka only after that transaction committed
 * (auto-commit off; {@code commitAsync} after each poll, {@code commitSync} on revocation and
 * close, or after each transaction). When a record fails, the records before it commit once, the
 * failed one is sought back to and its partition paused for a backoff, then redelivered with the
 * rest; other partitions keep flowing. On revocation the processed offsets of the revoked
 * partitions are committed and the rest is dropped. Create with {@link #builder()}; {@link
 * #start()} once, {@link #close()} to stop. Thread-safe for start and close.
 */
public final class DedupKafkaConsumer<K, V> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DedupKafkaConsumer.class);

  private final String name;
  private final Consumer<K, V> consumer;
  private final MessageHandler<ConsumerRecord<K, V>> handler;
  private final BatchHandler<ConsumerRecord<K, V>> batchHandler;
  private final BatchSizer batchSizer;
  private final Collection<String> topics;
  private final Duration pollTimeout;
  private final boolean commitPerRecord;
  private final Backoff failureBackoff;
  private final PartitionProgress progress = new PartitionProgress();
  private final OffsetCommitter committer;
  private final Thread thread;
  private volatile boolean running;

  DedupKafkaConsumer(DedupKafkaConsumerBuilder<K, V> b, Consumer<K, V> consumer) {
    this.name = b.name;
    this.consumer = consumer;
    this.handler = b.perRecord ? KafkaDedup.recordHandler(b.dedup, b.handler) : null;
    this.batchHandler =
        b.perRecord
            ? null
            : b.dedup.transactionalBatch(
                KafkaDedup::identity,
                b.batchHandler != null ? b.batchHandler : DedupBatchHandler.each(b.handler));
    this.batchSizer = new BatchSizer(b.batchMaxRecords, b.batchMaxTime);
    this.topics = List.copyOf(b.topics);
    this.pollTimeout = b.pollTimeout;
    this.commitPerRecord = b.commitPerRecord;
    this.failureBackoff = new Backoff(b.failureBackoffInitial, b.failureBackoffMax);
    this.committer = new OffsetCommitter(name, consumer, progress);
    this.thread = new Thread(this::run, "dedup-kafka-" + name);
  }

  /** A builder; dedup, handler, topics and consumer properties are required. */
  public static <K, V> DedupKafkaConsumerBuilder<K, V> builder() {
    return new DedupKafkaConsumerBuilder<>();
  }

  /** Subscribes and starts consuming on a new thread. */
  public synchronized DedupKafkaConsumer<K, V> start() {
    LOG.info("{} - Starting on {}", name, topics);
    running = true;
    thread.start();
    return this;
  }

  /** The partitions assigned after the last rebalance; for health checks. */
  public Set<TopicPartition> assignment() {
    return committer.assignment();
  }

  /** Whether the loop thread runs. */
  public boolean isRunning() {
    return thread.isAlive();
  }

  /**
   * Stops the loop after the current record, commits processed offsets and closes the Kafka
   * consumer; waits up to 30 s. Restores the interrupt flag if interrupted while waiting.
   */
  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      thread.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try {
      consumer.subscribe(topics, committer);
      while (running) {
        consumer.resume(progress.due());
        ConsumerRecords<K, V> records = consumer.poll(progress.pollTimeout(pollTimeout));
        for (TopicPartition tp : records.partitions()) {
          consume(tp, records.records(tp));
        }
        committer.commitAsync(progress.pending());
      }
    } catch (WakeupException e) {
      LOG.debug("{} - Woken up to stop", name);
    } catch (RuntimeException | Error e) {
      LOG.error("{} - Consumer loop failed", name, e);
    } finally {
      closeConsumer();
    }
  }

  private void consume(TopicPartition tp, List<ConsumerRecord<K, V>> records) {
    if (batchHandler != null) {
      consumeBatches(tp, records);
      return;
    }
    for (ConsumerRecord<K, V> record : records) {
      if (!running) {
        return;
      }
      try {
        handler.handle(record);
      } catch (RuntimeException e) {
        failed(tp, record, e);
        return;
      }
      progress.processed(tp, record.offset() + 1);
      if (commitPerRecord) {
        committer.commit(progress.pending(List.of(tp)));
      }
    }
  }

  /** One transaction per batch; on a failure the records before it are committed already. */
  private void consumeBatches(TopicPartition tp, List<ConsumerRecord<K, V>> records) {
    for (int from = 0; from < records.size() && running; ) {
      List<ConsumerRecord<K, V>> batch =
          records.subList(from, Math.min(records.size(), from + batchSizer.next()));
      long started = System.nanoTime();
      BatchOutcome outcome = batchHandler.handle(batch);
      if (outcome.complete()) {
        batchSizer.took(batch.size(), System.nanoTime() - started);
      }
      if (outcome.committed() > 0) {
        progress.processed(tp, batch.get(outcome.committed() - 1).offset() + 1);
      }
      if (!outcome.complete()) {
        failed(tp, batch.get(outcome.committed()), outcome.failure());
        return;
      }
      if (commitPerRecord) {
        committer.commit(progress.pending(List.of(tp)));
      }
      from += batch.size();
    }
  }

  private void failed(TopicPartition tp, ConsumerRecord<K, V> record, RuntimeException e) {
    int attempt = progress.failed(tp, failureBackoff);
    LOG.warn(
        "{} - {} offset {} failed (attempt {}), redelivering after backoff: {}",
        name,
        tp,
        record.offset(),
        attempt,
        e.toString());
    consumer.seek(tp, record.offset());
    consumer.pause(List.of(tp));
  }

  private void closeConsumer() {
    try {
      committer.commit(progress.pending());
    } catch (WakeupException e) {
      committer.commit(progress.pending());
    } finally {
      consumer.close();
      LOG.info("{} - Stopped", name);
    }
  }
}
