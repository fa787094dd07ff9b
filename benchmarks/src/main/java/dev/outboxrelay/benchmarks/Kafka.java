package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/** The broker side: topics, shared producer settings, and counting what arrived on a topic. */
final class Kafka implements AutoCloseable {
  static final int PARTITIONS = 3;
  private static final AtomicInteger TOPICS = new AtomicInteger();
  final String bootstrap;
  private final Admin admin;
  private final dev.outboxrelay.servers.KafkaServer server;

  Kafka(dev.outboxrelay.servers.KafkaServer server) {
    this.server = server;
    this.bootstrap = server.bootstrapServers();
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    this.admin = Admin.create(p);
  }

  /**
   * Producer settings every sender in the benchmark uses (ours, K, the peers): idempotent,
   * acks=all, batching tuned for throughput.
   */
  Map<String, String> producerSettings() {
    Map<String, String> p = new HashMap<>();
    p.put("bootstrap.servers", bootstrap);
    p.put("enable.idempotence", "true");
    p.put("acks", "all");
    p.put("linger.ms", System.getProperty("outbox.bench.lingerMs", "5"));
    p.put("batch.size", String.valueOf(256 * 1024));
    p.put("compression.type", "lz4");
    p.put("max.in.flight.requests.per.connection", "5");
    return p;
  }

  /** A fresh topic {@code <prefix>order}; returns the prefix (the topic template's head). */
  String newTopicPrefix(String what) {
    String prefix = "bench-" + what + "-" + TOPICS.incrementAndGet() + "-";
    server.createTopic(prefix + "order", PARTITIONS);
    return prefix;
  }

  KafkaPublisher publisher(String prefix) {
    return publisher(prefix, Map.of());
  }

  /** A publisher with the shared producer settings, some of them overridden. */
  KafkaPublisher publisher(String prefix, Map<String, String> overrides) {
    Map<String, String> settings = producerSettings();
    settings.putAll(overrides);
    return KafkaPublisher.builder()
        .producerProperties(settings)
        .topicTemplate(TopicTemplate.of(prefix + TopicTemplate.PLACEHOLDER))
        .build();
  }

  /** Messages on the topic (sum of the partitions' end offsets). */
  long count(String topic) {
    Map<TopicPartition, OffsetSpec> q = new HashMap<>();
    for (int i = 0; i < PARTITIONS; i++) {
      q.put(new TopicPartition(topic, i), OffsetSpec.latest());
    }
    try {
      return admin.listOffsets(q).all().get().values().stream().mapToLong(o -> o.offset()).sum();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Waits until the topic holds {@code n} messages. Returns {@code [firstSeenNanos, doneNanos]}
   * (System.nanoTime) where first is when the count first moved above zero.
   */
  long[] awaitCount(String topic, long n, Duration timeout) throws TimeoutException {
    return awaitCount(topic, 0, n, timeout);
  }

  /** As {@link #awaitCount(String, long, Duration)}, first = when the count passed {@code base}. */
  long[] awaitCount(String topic, long base, long n, Duration timeout) throws TimeoutException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long first = 0;
    while (System.nanoTime() < deadline) {
      long c = count(topic);
      long now = System.nanoTime();
      if (c > base && first == 0) {
        first = now;
      }
      if (c >= n) {
        return new long[] {first, now};
      }
      sleep(10);
    }
    throw new TimeoutException(topic + ": " + count(topic) + " of " + n + " after " + timeout);
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  List<String> topics() throws Exception {
    return List.copyOf(admin.listTopics().names().get());
  }

  @Override
  public void close() {
    admin.close();
  }
}
