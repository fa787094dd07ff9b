package dev.outboxrelay.daemon;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.publisher.kafka.KafkaSettings;
import dev.outboxrelay.relay.state.DiscardedMessage;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The reconciliation loop: every row the relay marked published in a time window (retention {@code
 * keep:<duration>}) must be on its Kafka topic, found by the {@code id} header. Reports the missing
 * ones and, with {@code --republish}, publishes them again with the same id through the relay's
 * publisher (idempotent for deduplicating consumers, and a second verify finds nothing missing).
 * Messages an operator discarded ({@code parked discard}) are reported as discarded: they are not
 * missing and are never republished. Exit code 0 when nothing is missing (or everything missing was
 * republished), 1 otherwise; discarded messages do not count.
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description =
        "Compare published outbox rows of a time window with the Kafka topics by message id;"
            + " report and optionally republish the missing ones.")
final class VerifyCommand implements Callable<Integer> {
  @Mixin ConfigOption config;
  @Spec CommandSpec spec;

  @Option(
      names = "--since",
      required = true,
      description = "Window start, ISO-8601 instant (rows created at or after it).")
  Instant since;

  @Option(names = "--until", description = "Window end, ISO-8601 instant. Default: now.")
  Instant until;

  @Option(names = "--republish", description = "Publish the missing messages again (same id).")
  boolean republish;

  @Option(
      names = "--slack",
      defaultValue = "PT5M",
      description =
          "How long before the window the topic scan starts (clock skew and publish delay)."
              + " Default: ${DEFAULT-VALUE}.")
  Duration slack;

  @Override
  public Integer call() {
    DaemonConfig cfg = config.load();
    RelayConfig relay = cfg.relayOrOnly(config.relay);
    int index = cfg.relays().indexOf(relay);
    if (!relay.publisher().type().equals("kafka")) {
      throw new OutboxConfigException(
          "relays[" + index + "].publisher.type",
          relay.publisher().type(),
          "must be kafka for verify (it reads the topics with a Kafka consumer)");
    }
    if (relay.keepPublishedFor().isEmpty()) {
      throw new OutboxConfigException(
          "relays[" + index + "].retention",
          "delete",
          "must be keep:<duration> for verify (published rows are the evidence to compare)");
    }
    PrintWriter out = spec.commandLine().getOut();
    Instant to = until == null ? Instant.now() : until;
    String template = relay.publisher().settings().get(KafkaSettings.TOPIC_TEMPLATE.key());
    TopicTemplate topics =
        TopicTemplate.of(template == null ? KafkaSettings.TOPIC_TEMPLATE.defaultValue() : template);

    Map<UUID, OutboxMessage> expected = new LinkedHashMap<>();
    Map<String, Set<UUID>> byTopic = new HashMap<>();
    Map<UUID, DiscardedMessage> decisions = new HashMap<>();
    List<DiscardedMessage> discarded = new ArrayList<>();
    long[] rows = {0};
    try (AdminSession s = AdminSession.open(cfg, relay)) {
      s.admin.discarded().forEach(d -> decisions.put(d.messageId(), d));
      s.admin.publishedBetween(
          since,
          to,
          m -> {
            rows[0]++;
            // An operator discarded it: it was never sent on purpose, so it is neither looked
            // for on the topics nor missing, and --republish never sends it.
            DiscardedMessage d = decisions.get(m.id());
            if (d != null) {
              discarded.add(d);
              return;
            }
            expected.put(m.id(), m);
            byTopic.computeIfAbsent(topics.topicFor(m), t -> new HashSet<>()).add(m.id());
          });
    }
    out.printf(
        "verify %s: %d published row(s) created in [%s, %s) on %d topic(s)%n",
        relay.name(), rows[0], since, to, byTopic.size());
    out.printf("discarded: %d (never sent, by operator decision; not missing)%n", discarded.size());
    for (DiscardedMessage d : discarded.subList(0, Math.min(discarded.size(), 100))) {
      out.printf(
          "discarded id=%s key=%s discarded_at=%s by=%s reason=%s%n",
          d.messageId(), d.aggregateId(), d.discardedAt(), d.discardedBy(), d.reason());
    }
    out.flush();

    Set<UUID> seen = scan(relay, byTopic.keySet(), since.minus(slack), out);
    List<OutboxMessage> missing = new ArrayList<>();
    for (OutboxMessage m : expected.values()) {
      if (!seen.contains(m.id())) {
        missing.add(m);
      }
    }
    out.printf("missing: %d of %d%n", missing.size(), expected.size());
    for (OutboxMessage m : missing.subList(0, Math.min(missing.size(), 100))) {
      out.printf(
          "missing id=%s key=%s type=%s seq=%s topic=%s%n",
          m.id(),
          m.aggregateId(),
          m.type(),
          m.sequence().isPresent() ? String.valueOf(m.sequence().getAsLong()) : "-",
          topics.topicFor(m));
    }
    if (missing.size() > 100) {
      out.printf("... and %d more%n", missing.size() - 100);
    }
    out.flush();
    if (missing.isEmpty()) {
      return 0;
    }
    if (!republish) {
      return 1;
    }
    int failed = republish(relay, index, missing, out);
    out.printf("republished: %d, failed: %d%n", missing.size() - failed, failed);
    out.flush();
    return failed == 0 ? 0 : 1;
  }

  /** Ids on the topics from {@code from} on, read up to the end offsets taken at the start. */
  private Set<UUID> scan(RelayConfig relay, Set<String> topicNames, Instant from, PrintWriter out) {
    Properties props = new Properties();
    relay.publisher().settings().forEach(props::put);
    props.remove(KafkaSettings.TOPIC_TEMPLATE.key());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    Set<UUID> seen = new HashSet<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            consumerOnly(props), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : topicNames) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
        if (infos == null) {
          continue;
        }
        infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
      }
      if (partitions.isEmpty()) {
        return seen;
      }
      consumer.assign(partitions);
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
      long total =
          remaining.entrySet().stream()
              .mapToLong(e -> e.getValue() - consumer.position(e.getKey()))
              .sum();
      long scanned = 0;
      long lastReport = System.nanoTime();
      while (!remaining.isEmpty()) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          TopicPartition p = new TopicPartition(r.topic(), r.partition());
          Long stop = remaining.get(p);
          if (stop == null || r.offset() >= stop) {
            continue;
          }
          scanned++;
          Header id = r.headers().lastHeader(MessageContract.HEADER_ID);
          if (id != null) {
            try {
              seen.add(UUID.fromString(new String(id.value(), StandardCharsets.UTF_8)));
            } catch (IllegalArgumentException e) {
              // not one of ours
            }
          }
        }
        for (TopicPartition p : new ArrayList<>(remaining.keySet())) {
          if (consumer.position(p) >= remaining.get(p)) {
            remaining.remove(p);
          }
        }
        if (System.nanoTime() - lastReport > TimeUnit.SECONDS.toNanos(2)) {
          out.printf("scanned %d of %d record(s)%n", scanned, total);
          out.flush();
          lastReport = System.nanoTime();
        }
      }
      out.printf("scanned %d record(s) on %d partition(s)%n", scanned, partitions.size());
    }
    return seen;
  }

  private static Properties consumerOnly(Properties settings) {
    Properties p = new Properties();
    Set<String> known = ConsumerConfig.configNames();
    settings.forEach(
        (k, v) -> {
          if (known.contains(String.valueOf(k))) {
            p.put(k, v);
          }
        });
    return p;
  }

  /**
   * A republished message arrives after later messages of its key, so it must not promise that its
   * {@code seq} follows commit order per key: a consumer's high-water mark would take it for STALE
   * and skip it for good, the very message the broker lost. Without the marker the consumer dedups
   * it by id only and applies it once (consumer-dedup README, "High-water mark").
   */
  static OutboxMessage withoutOrderPromise(OutboxMessage m) {
    return m.headers().containsKey(MessageContract.HEADER_SEQUENCE_ORDER)
        ? m.toBuilder().removeHeader(MessageContract.HEADER_SEQUENCE_ORDER).build()
        : m;
  }

  private static int republish(
      RelayConfig relay, int index, List<OutboxMessage> missing, PrintWriter out) {
    int failed = 0;
    try (Publisher publisher = Wiring.publisher(relay, index)) {
      for (int i = 0; i < missing.size(); i += 500) {
        List<OutboxMessage> batch =
            missing.subList(i, Math.min(missing.size(), i + 500)).stream()
                .map(VerifyCommand::withoutOrderPromise)
                .toList();
        List<PublishResult> results = publisher.publish(batch).toCompletableFuture().join();
        for (int j = 0; j < results.size(); j++) {
          if (!results.get(j).isAcknowledged()) {
            failed++;
            out.printf("republish failed id=%s: %s%n", batch.get(j).id(), results.get(j));
          }
        }
        out.printf("republished %d of %d%n", Math.min(missing.size(), i + 500), missing.size());
        out.flush();
      }
    }
    return failed;
  }
}
