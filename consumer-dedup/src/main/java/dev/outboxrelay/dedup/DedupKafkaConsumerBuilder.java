package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxConfigException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;

/** Builds a {@link DedupKafkaConsumer}; settings are validated when set. Not thread-safe. */
public final class DedupKafkaConsumerBuilder<K, V> {
  Dedup dedup;
  DedupHandler<ConsumerRecord<K, V>> handler;
  DedupBatchHandler<ConsumerRecord<K, V>> batchHandler;
  boolean perRecord;
  int concurrency = 1;
  int batchMaxRecords = 1000;
  Duration batchMaxTime = Duration.ofSeconds(1);
  Collection<String> topics;
  final Properties properties = new Properties();
  Deserializer<K> keyDeserializer;
  Deserializer<V> valueDeserializer;
  String name;
  Duration pollTimeout = Duration.ofMillis(500);
  boolean commitPerRecord;
  Duration failureBackoffInitial = Duration.ofMillis(200);
  Duration failureBackoffMax = Duration.ofSeconds(30);

  DedupKafkaConsumerBuilder() {}

  /** The dedup of the consumer group. Required. */
  public DedupKafkaConsumerBuilder<K, V> dedup(Dedup dedup) {
    this.dedup = Objects.requireNonNull(dedup, "dedup");
    return this;
  }

  /**
   * The record handler; its connection joins the dedup transaction. This or {@link #batchHandler}
   * is required.
   */
  public DedupKafkaConsumerBuilder<K, V> handler(DedupHandler<ConsumerRecord<K, V>> handler) {
    this.handler = Objects.requireNonNull(handler, "handler");
    return this;
  }

  /**
   * A handler that takes a batch's new records in one call (e.g. one JDBC batch insert); its
   * connection joins the batch's transaction. Throw {@link DedupBatchItemException} to name the
   * failed record, else the batch is split to find it. Not with {@link #perRecord}.
   */
  public DedupKafkaConsumerBuilder<K, V> batchHandler(
      DedupBatchHandler<ConsumerRecord<K, V>> batchHandler) {
    this.batchHandler = Objects.requireNonNull(batchHandler, "batchHandler");
    return this;
  }

  /**
   * One database transaction per record instead of one per batch: each record's effect is visible
   * sooner and no lock is held across records, at a fraction of the throughput. Default {@code
   * false}.
   */
  public DedupKafkaConsumerBuilder<K, V> perRecord(boolean perRecord) {
    this.perRecord = perRecord;
    return this;
  }

  /**
   * How many partitions are handled side by side, each on its own worker thread and database
   * connection (the pool needs that many): one partition's records still run in offset order, one
   * transaction at a time, and its offsets are committed only after its transactions committed.
   * More than one lets the database commit several partitions' transactions at once (group commit),
   * which is where a single loop waits; it helps up to the number of assigned partitions. With more
   * than one, the handler and the {@link DedupListener} are called from several threads at once,
   * and {@link #commitPerRecord} commits offsets on the loop thread right after it learns of each
   * transaction rather than before the next one starts. Default 1: everything on the consumer's
   * thread.
   *
   * @throws OutboxConfigException unless 1 &le; concurrency &le; 64
   */
  public DedupKafkaConsumerBuilder<K, V> concurrency(int concurrency) {
    if (concurrency < 1 || concurrency > 64) {
      throw new OutboxConfigException("concurrency", concurrency, "must be between 1 and 64");
    }
    this.concurrency = concurrency;
    return this;
  }

  /**
   * Bounds a batch transaction: at most {@code maxRecords} records of one partition (from one poll:
   * set {@code max.poll.records} at least as high); when a batch took longer than {@code maxTime},
   * the next ones are cut to fit it at the measured rate and grow back once they are fast again.
   * Default 1000 records, 1 s. Unless the consumer properties set {@code max.poll.records}, it is
   * set to {@code maxRecords}, so one poll can fill a batch.
   *
   * @throws OutboxConfigException unless 1 &le; maxRecords &le; 10000 and 1 ms &le; maxTime &le; 1
   *     min
   */
  public DedupKafkaConsumerBuilder<K, V> batchSize(int maxRecords, Duration maxTime) {
    if (maxRecords < 1 || maxRecords > 10_000) {
      throw new OutboxConfigException("batchMaxRecords", maxRecords, "must be between 1 and 10000");
    }
    DedupBuilder.requirePositive("batchMaxTime", maxTime);
    if (maxTime.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new OutboxConfigException("batchMaxTime", maxTime, "must be at most PT1M");
    }
    this.batchMaxRecords = maxRecords;
    this.batchMaxTime = maxTime;
    return this;
  }

  /**
   * The topics to subscribe to. Required.
   *
   * @throws OutboxConfigException if empty
   */
  public DedupKafkaConsumerBuilder<K, V> topics(Collection<String> topics) {
    if (topics == null || topics.isEmpty()) {
      throw new OutboxConfigException("topics", topics, "must name at least one topic");
    }
    this.topics = List.copyOf(topics);
    return this;
  }

  /**
   * Kafka consumer settings, passed through ({@code bootstrap.servers}, {@code group.id}, TLS,
   * ...). {@code group.id} is required; {@code enable.auto.commit} is forced to {@code false}.
   *
   * @throws OutboxConfigException if {@code enable.auto.commit} is {@code true}
   */
  public DedupKafkaConsumerBuilder<K, V> consumerProperties(Properties consumerProperties) {
    Object autoCommit = consumerProperties.get(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG);
    if (autoCommit != null && Boolean.parseBoolean(autoCommit.toString())) {
      throw new OutboxConfigException(
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
          autoCommit,
          "must be false: offsets are committed only after the database transaction");
    }
    properties.putAll(consumerProperties);
    return this;
  }

  /**
   * Deserializers; default: the {@code key.deserializer} and {@code value.deserializer} settings.
   */
  public DedupKafkaConsumerBuilder<K, V> deserializers(Deserializer<K> key, Deserializer<V> value) {
    this.keyDeserializer = Objects.requireNonNull(key, "key");
    this.valueDeserializer = Objects.requireNonNull(value, "value");
    return this;
  }

  /** Name for logs and the thread. Default: the {@code group.id}. */
  public DedupKafkaConsumerBuilder<K, V> name(String name) {
    this.name = Objects.requireNonNull(name, "name");
    return this;
  }

  /**
   * Longest wait in one poll. Default 500 ms.
   *
   * @throws OutboxConfigException unless 1 ms – 1 min
   */
  public DedupKafkaConsumerBuilder<K, V> pollTimeout(Duration pollTimeout) {
    DedupBuilder.requirePositive("pollTimeout", pollTimeout);
    if (pollTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new OutboxConfigException("pollTimeout", pollTimeout, "must be at most PT1M");
    }
    this.pollTimeout = pollTimeout;
    return this;
  }

  /**
   * Commit offsets after every database transaction (each batch, or each record with {@link
   * #perRecord}) instead of after every poll: fewer redeliveries after a crash, more commit
   * requests. Default {@code false}.
   */
  public DedupKafkaConsumerBuilder<K, V> commitPerRecord(boolean commitPerRecord) {
    this.commitPerRecord = commitPerRecord;
    return this;
  }

  /**
   * How long a partition pauses after a failed record before it is redelivered: doubles from {@code
   * initial} up to {@code max}, with jitter. Default 200 ms up to 30 s.
   *
   * @throws OutboxConfigException unless {@code 0 < initial <= max <= 1 h}
   */
  public DedupKafkaConsumerBuilder<K, V> failureBackoff(Duration initial, Duration max) {
    DedupBuilder.requirePositive("failureBackoffInitial", initial);
    DedupBuilder.requirePositive("failureBackoffMax", max);
    if (max.compareTo(initial) < 0 || max.compareTo(Duration.ofHours(1)) > 0) {
      throw new OutboxConfigException(
          "failureBackoffMax", max, "must be between failureBackoffInitial and PT1H");
    }
    this.failureBackoffInitial = initial;
    this.failureBackoffMax = max;
    return this;
  }

  /**
   * Creates the Kafka consumer (not yet subscribed).
   *
   * @throws OutboxConfigException if a required setting is missing
   */
  public DedupKafkaConsumer<K, V> build() {
    require("dedup", dedup);
    if (handler == null && batchHandler == null) {
      throw new OutboxConfigException("handler", null, "is required (or batchHandler)");
    }
    if (handler != null && batchHandler != null) {
      throw new OutboxConfigException("batchHandler", "cannot be combined with handler");
    }
    if (perRecord && batchHandler != null) {
      throw new OutboxConfigException("perRecord", true, "cannot be combined with batchHandler");
    }
    require("topics", topics);
    Object group = properties.get(ConsumerConfig.GROUP_ID_CONFIG);
    require(ConsumerConfig.GROUP_ID_CONFIG, group);
    if (name == null) {
      name = group.toString();
    }
    Properties p = kafkaProperties();
    KafkaConsumer<K, V> consumer =
        keyDeserializer == null
            ? new KafkaConsumer<>(p)
            : new KafkaConsumer<>(p, keyDeserializer, valueDeserializer);
    return new DedupKafkaConsumer<>(this, consumer);
  }

  /**
   * The Kafka consumer's settings: the given ones, auto-commit off, and {@code max.poll.records} =
   * the batch size unless given (Kafka's default of 500 would cap every batch at 500).
   */
  Properties kafkaProperties() {
    Properties p = new Properties();
    p.putAll(properties);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(batchMaxRecords));
    return p;
  }

  private static void require(String key, Object value) {
    if (value == null) {
      throw new OutboxConfigException(key, null, "is required");
    }
  }
}
