package dev.outboxrelay.dedup;

import dev.outboxrelay.dedup.internal.Backoff;
import dev.outboxrelay.dedup.internal.BatchSizer;
import dev.outboxrelay.dedup.internal.OffsetCommitter;
import dev.outboxrelay.dedup.internal.PartitionProgress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * polled batch in one database transaction (batch mode, the default: all the poll's partitions
 * together on the loop thread, each partition apart with {@code concurrency(n > 1)}; or one
 * transaction per record) and commits offsets to Kafka only after that transaction committed
 * (auto-commit off; {@code commitAsync} after each poll, {@code commitSync} on revocation and
 * close, or after each transaction). When a record fails, the records before it commit once, the
 * failed one is sought back to and its partition paused for a backoff, then redelivered with the
 * rest; other partitions keep flowing. On revocation the processed offsets of the revoked
 * partitions are committed and the rest is dropped. Create with {@link #builder()}; {@link
 * #start()} once, {@link #close()} to stop. Thread-safe for start and close.
 *
 * <p>With OpenTelemetry's API on the classpath, a {@link DedupKafkaConsumerBuilder#handler record
 * handler} runs in a consumer span per record whose parent is the record's {@code traceparent}; a
 * {@link DedupKafkaConsumerBuilder#batchHandler batch handler} in one span per call, linked to each
 * record's context (README, "Trace context").
 */
public final class DedupKafkaConsumer<K, V> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DedupKafkaConsumer.class);
  private static final Duration LANE_POLL = Duration.ofMillis(5);

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
  private final PartitionLanes<K, V> lanes; // null: every partition on the loop thread
  private final Set<TopicPartition> full = new HashSet<>(); // paused until their lane drains
  private final Inline inline = new Inline();
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
                KafkaDedup::traced,
                b.batchHandler != null ? b.batchHandler : DedupBatchHandler.each(b.handler));
    this.batchSizer = new BatchSizer(b.batchMaxRecords, b.batchMaxTime);
    this.topics = List.copyOf(b.topics);
    this.pollTimeout = b.pollTimeout;
    this.commitPerRecord = b.commitPerRecord;
    this.failureBackoff = new Backoff(b.failureBackoffInitial, b.failureBackoffMax);
    this.committer = new OffsetCommitter(name, consumer, progress, this::release);
    this.lanes =
        b.concurrency == 1
            ? null
            : new PartitionLanes<>(
                name, b.concurrency, b.batchMaxRecords, b.batchMaxTime, this::handle);
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
        if (lanes != null) {
          settle();
        }
        consumer.resume(progress.due());
        ConsumerRecords<K, V> records = consumer.poll(pollTimeout());
        if (lanes == null && batchHandler != null) {
          handleAcross(records);
        } else {
          for (TopicPartition tp : records.partitions()) {
            consume(tp, records.records(tp));
          }
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

  /** The poll's wait: short while lanes work, so their progress is settled and committed soon. */
  private Duration pollTimeout() {
    Duration wait = progress.pollTimeout(pollTimeout);
    return lanes != null && lanes.busy() && wait.compareTo(LANE_POLL) > 0 ? LANE_POLL : wait;
  }

  private void consume(TopicPartition tp, List<ConsumerRecord<K, V>> records) {
    if (lanes == null) {
      handle(tp, records, batchSizer, inline);
    } else if (lanes.offer(tp, records) && full.add(tp)) {
      consumer.pause(List.of(tp));
    }
  }

  /** Applies what the lanes reported; resumes full partitions that were worked down. */
  private void settle() {
    int committed = lanes.settle(inline);
    for (var it = full.iterator(); it.hasNext(); ) {
      TopicPartition tp = it.next();
      if (lanes.drained(tp)) {
        it.remove();
        if (!progress.backingOff(tp)) {
          consumer.resume(List.of(tp));
        }
      }
    }
    if (commitPerRecord && committed > 0) {
      committer.commit(progress.pending());
    }
  }

  /** Stops the lanes of released partitions and records what their last transactions did. */
  private void release(Collection<TopicPartition> partitions) {
    if (lanes != null) {
      lanes.release(partitions);
      lanes.settle(inline);
      full.removeAll(partitions);
    }
  }

  /**
   * Handles one partition's records in offset order: one transaction per batch (or per record),
   * reporting each commit and the failure that stops them. On the loop thread, or on a lane's.
   */
  private void handle(
      TopicPartition tp, List<ConsumerRecord<K, V>> records, BatchSizer sizer, Progress<K, V> to) {
    if (batchHandler != null) {
      handleBatches(tp, records, sizer, to);
      return;
    }
    for (ConsumerRecord<K, V> record : records) {
      if (!running) {
        return;
      }
      try {
        handler.handle(record);
      } catch (RuntimeException e) {
        to.failed(tp, record, e);
        return;
      }
      to.processed(tp, record.offset() + 1);
    }
  }

  /** One transaction per batch; on a failure the records before it are committed already. */
  private void handleBatches(
      TopicPartition tp, List<ConsumerRecord<K, V>> records, BatchSizer sizer, Progress<K, V> to) {
    for (int from = 0; from < records.size() && running; ) {
      List<ConsumerRecord<K, V>> batch =
          records.subList(from, Math.min(records.size(), from + sizer.next()));
      long started = System.nanoTime();
      BatchOutcome outcome = batchHandler.handle(batch);
      if (outcome.complete()) {
        sizer.took(batch.size(), System.nanoTime() - started);
      }
      if (outcome.committed() > 0) {
        to.processed(tp, batch.get(outcome.committed() - 1).offset() + 1);
      }
      if (!outcome.complete()) {
        to.failed(tp, batch.get(outcome.committed()), outcome.failure());
        return;
      }
      from += batch.size();
    }
  }

  /**
   * On the loop thread, batch mode: the poll's records of all partitions share a transaction (up to
   * the batch size), partition after partition, each in offset order. When a record fails, the
   * records before it commit, its partition is sought back and paused, and the records of other
   * partitions after it (rolled back with it) go into the next transaction.
   */
  private void handleAcross(ConsumerRecords<K, V> polled) {
    List<ConsumerRecord<K, V>> queue = new ArrayList<>(polled.count());
    for (TopicPartition tp : polled.partitions()) {
      queue.addAll(polled.records(tp));
    }
    for (int from = 0; from < queue.size() && running; ) {
      List<ConsumerRecord<K, V>> batch =
          queue.subList(from, Math.min(queue.size(), from + batchSizer.next()));
      long started = System.nanoTime();
      BatchOutcome outcome = batchHandler.handle(batch);
      if (outcome.complete()) {
        batchSizer.took(batch.size(), System.nanoTime() - started);
      }
      Map<TopicPartition, Long> next = new LinkedHashMap<>();
      for (ConsumerRecord<K, V> r : batch.subList(0, outcome.committed())) {
        next.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
      }
      next.forEach(inline::processed);
      if (outcome.complete()) {
        from += batch.size();
        continue;
      }
      ConsumerRecord<K, V> failed = batch.get(outcome.committed());
      TopicPartition held = new TopicPartition(failed.topic(), failed.partition());
      inline.failed(held, failed, outcome.failure());
      List<ConsumerRecord<K, V>> rest = new ArrayList<>();
      for (ConsumerRecord<K, V> r : queue.subList(from + outcome.committed() + 1, queue.size())) {
        if (r.partition() != held.partition() || !r.topic().equals(held.topic())) {
          rest.add(r);
        }
      }
      queue = rest;
      from = 0;
    }
  }

  /** Where a partition's handling reports: applied at once on the loop thread, or via the lanes. */
  interface Progress<K, V> {
    /** The records before {@code nextOffset} committed in the database. */
    void processed(TopicPartition tp, long nextOffset);

    /** {@code record} failed with {@code e}; nothing after it was handled. */
    void failed(TopicPartition tp, ConsumerRecord<K, V> record, RuntimeException e);
  }

  /** Applies progress on the loop thread. */
  private final class Inline implements Progress<K, V> {
    @Override
    public void processed(TopicPartition tp, long nextOffset) {
      progress.processed(tp, nextOffset);
      if (commitPerRecord && lanes == null) {
        committer.commit(progress.pending(List.of(tp)));
      }
    }

    @Override
    public void failed(TopicPartition tp, ConsumerRecord<K, V> record, RuntimeException e) {
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
      full.remove(tp);
    }
  }

  private void closeConsumer() {
    try {
      if (lanes != null) {
        lanes.close();
        lanes.settle(inline);
      }
      committer.commit(progress.pending());
    } catch (WakeupException e) {
      committer.commit(progress.pending());
    } finally {
      consumer.close();
      LOG.info("{} - Stopped", name);
    }
  }
}
