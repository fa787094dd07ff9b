package dev.outboxrelay.dedup;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.outboxrelay.testing.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A topic, a producer of outbox-contract records and helpers, on top of the database fixture. */
abstract class KafkaFixture extends DbFixture {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  static final Duration TIMEOUT = Duration.ofSeconds(60);

  final List<AutoCloseable> closeables = new ArrayList<>();
  final String topic = "dedup-" + UUID.randomUUID().toString().substring(0, 8);
  final AtomicInteger duplicates = new AtomicInteger();
  KafkaProducer<String, String> producer;
  long seq;

  @BeforeEach
  void createTopic() {
    KAFKA.server().createTopic(topic, 4);
    producer =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", KAFKA.server().bootstrapServers(), "linger.ms", 0),
            new StringSerializer(),
            new StringSerializer());
  }

  @AfterEach
  void closeClients() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    producer.close(Duration.ofSeconds(5));
  }

  /** Sends {@code count} new messages over ten keys; returns their ids. */
  List<String> send(int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String id = newId();
      send("order-" + (i % 10), id);
      ids.add(id);
    }
    producer.flush();
    return ids;
  }

  /** Sends one record of the message contract (key = aggregateid, id and seq headers). */
  void send(String key, String id) {
    ProducerRecord<String, String> r = new ProducerRecord<>(topic, key, "{\"id\":\"" + id + "\"}");
    r.headers().add("id", id.getBytes(UTF_8));
    r.headers().add("seq", Long.toString(++seq).getBytes(UTF_8));
    r.headers().add("seq-order", "key".getBytes(UTF_8));
    producer.send(r);
  }

  Properties consumerProperties(String group) {
    Properties p = new Properties();
    p.put("bootstrap.servers", KAFKA.server().bootstrapServers());
    p.put("group.id", group);
    p.put("auto.offset.reset", "earliest");
    p.put("enable.auto.commit", "false");
    p.put("key.deserializer", StringDeserializer.class.getName());
    p.put("value.deserializer", StringDeserializer.class.getName());
    return p;
  }

  /** A handler that writes one effect row per record. */
  static DedupHandler<ConsumerRecord<String, String>> recordEffect() {
    return (c, r) -> insertEffect(c, KafkaDedup.identity(r).id());
  }

  /** A dedup of the group whose listener is told every committed outcome. */
  Dedup dedup(String group, BiConsumer<MessageIdentity, Outcome> onOutcome) {
    return Dedup.builder()
        .store(store)
        .group(group)
        .listener(
            new DedupListener() {
              @Override
              public void onOutcome(String g, MessageIdentity m, Outcome outcome) {
                onOutcome.accept(m, outcome);
              }
            })
        .build();
  }

  /** A dedup that counts DUPLICATE outcomes in {@link #duplicates}. */
  Dedup countingDedup(String group) {
    return dedup(
        group,
        (m, outcome) -> {
          if (outcome == Outcome.DUPLICATE) {
            duplicates.incrementAndGet();
          }
        });
  }

  /** The loops' {@code concurrency}: 1 runs every partition on the loop thread. */
  int concurrency() {
    return 1;
  }

  /** A consumer loop on the topic with a short poll and failure backoff; add a handler. */
  DedupKafkaConsumerBuilder<String, String> loop(String group) {
    return DedupKafkaConsumer.<String, String>builder()
        .concurrency(concurrency())
        .dedup(countingDedup(group))
        .topics(List.of(topic))
        .consumerProperties(consumerProperties(group))
        .pollTimeout(Duration.ofMillis(100))
        .failureBackoff(Duration.ofMillis(50), Duration.ofMillis(200));
  }

  /** A batch-mode loop (the default) with a per-record handler. */
  DedupKafkaConsumer<String, String> loop(
      String group, DedupHandler<ConsumerRecord<String, String>> handler) {
    return loop(group).handler(handler).build();
  }

  DedupKafkaConsumer<String, String> started(DedupKafkaConsumer<String, String> consumer) {
    closeables.add(consumer);
    return consumer.start();
  }

  /** The sum of the group's committed offsets over the topic's partitions. */
  long committed(String group) throws Exception {
    try (Admin admin =
        Admin.create(Map.of("bootstrap.servers", KAFKA.server().bootstrapServers()))) {
      return admin
          .listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata()
          .get()
          .values()
          .stream()
          .mapToLong(OffsetAndMetadata::offset)
          .sum();
    }
  }
}
