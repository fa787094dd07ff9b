package dev.outboxrelay.publisher.kafka.internal;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.TopicTemplate;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The Kafka publisher's {@link BrokerCheck}. {@link #present} reads the topics from {@code from}
 * (by record timestamp) up to the end offsets taken at its start, collecting the {@code id}
 * headers: one pass per check, however many messages, on a consumer of its own with the publisher's
 * client settings (bootstrap, TLS, SASL), read-committed. No consumer group, nothing committed: the
 * check leaves no trace on the cluster. {@link #probe} asks {@link KafkaClusterProbe}.
 */
public final class KafkaBrokerCheck implements BrokerCheck {
  private final Map<String, String> settings;
  private final TopicTemplate topics;
  private final KafkaClusterProbe probe;

  /**
   * @param settings the publisher's settings; those a consumer or an admin client knows are used
   * @param topics the publisher's topic template
   */
  public KafkaBrokerCheck(Map<String, String> settings, TopicTemplate topics) {
    this.settings = Map.copyOf(settings);
    this.topics = topics;
    this.probe = new KafkaClusterProbe(this.settings);
  }

  @Override
  public TopicTemplate topics() {
    return topics;
  }

  @Override
  public Probe probe(Duration timeout) {
    return probe.check(timeout);
  }

  @Override
  public String target() {
    return probe.target();
  }

  @Override
  public void close() {
    probe.close();
  }

  @Override
  public Set<UUID> present(
      Map<String, List<OutboxMessage>> byTopic, Instant from, Consumer<String> progress) {
    Set<UUID> seen = new HashSet<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            consumerSettings(), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : byTopic.keySet()) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
        if (infos != null) {
          infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        }
      }
      if (partitions.isEmpty()) {
        return seen;
      }
      consumer.assign(partitions);
      Map<TopicPartition, Long> remaining = seekFrom(consumer, partitions, from);
      long total =
          remaining.entrySet().stream()
              .mapToLong(e -> e.getValue() - consumer.position(e.getKey()))
              .sum();
      long scanned = 0;
      long lastReport = System.nanoTime();
      while (!remaining.isEmpty()) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          Long stop = remaining.get(new TopicPartition(r.topic(), r.partition()));
          if (stop != null && r.offset() < stop) {
            scanned++;
            idOf(r).ifPresent(seen::add);
          }
        }
        remaining.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
        if (System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(2)) {
          progress.accept("scanned " + scanned + " of " + total + " record(s)");
          lastReport = System.nanoTime();
        }
      }
      progress.accept(
          "scanned " + scanned + " record(s) on " + partitions.size() + " partition(s)");
    }
    return seen;
  }

  /** Seeks each partition to {@code from}; returns the end offset of those with records to read. */
  private static Map<TopicPartition, Long> seekFrom(
      KafkaConsumer<byte[], byte[]> consumer, List<TopicPartition> partitions, Instant from) {
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
    Map<TopicPartition, Long> query = new HashMap<>();
    partitions.forEach(p -> query.put(p, from.toEpochMilli()));
    Map<TopicPartition, OffsetAndTimestamp> start =
        consumer.offsetsForTimes(query, Duration.ofSeconds(30));
    Map<TopicPartition, Long> remaining = new HashMap<>();
    for (TopicPartition p : partitions) {
      OffsetAndTimestamp o = start.get(p);
      long startOffset = o == null ? end.get(p) : o.offset();
      consumer.seek(p, startOffset);
      if (startOffset < end.get(p)) {
        remaining.put(p, end.get(p));
      }
    }
    return remaining;
  }

  private static Optional<UUID> idOf(ConsumerRecord<byte[], byte[]> r) {
    Header id = r.headers().lastHeader(MessageContract.HEADER_ID);
    if (id == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(UUID.fromString(new String(id.value(), StandardCharsets.UTF_8)));
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // not one of ours
    }
  }

  /** The publisher's settings a consumer knows, read-committed, never committing offsets. */
  private Properties consumerSettings() {
    Properties p = new Properties();
    Set<String> known = ConsumerConfig.configNames();
    settings.forEach(
        (k, v) -> {
          if (known.contains(k)) {
            p.put(k, v);
          }
        });
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    return p;
  }
}
