package dev.outboxrelay.spring;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.transaction.annotation.Transactional;

/**
 * The {@link Deduplicated} batch listeners of {@link DeduplicatedBatchIT}: each writes one row per
 * record it is given into {@code effects}, and remembers the keys of every call.
 */
class BatchListeners {
  private final Map<String, List<List<String>>> calls = new ConcurrentHashMap<>();
  private final AtomicInteger item2Attempts = new AtomicInteger();
  private final AtomicInteger badAttempts = new AtomicInteger();
  private final AtomicInteger tx1Attempts = new AtomicInteger();
  private final JdbcTemplate jdbc;

  BatchListeners(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @Deduplicated
  @KafkaListener(topics = "${test.dupes}", groupId = "batch-dupes", batch = "true")
  void onBatch(List<ConsumerRecord<String, String>> records) {
    called("dupes", records);
    jdbc.batchUpdate(
        "INSERT INTO effects (k) VALUES (?)",
        records,
        records.size(),
        (statement, record) -> statement.setString(1, record.key()));
  }

  /** The same topic from its start under another Kafka group: a restart without offset commit. */
  @Deduplicated(group = "batch-dupes")
  @KafkaListener(
      id = "replay",
      topics = "${test.dupes}",
      groupId = "batch-replay",
      batch = "true",
      autoStartup = "false")
  void replay(List<ConsumerRecord<String, String>> records) {
    called("replay", records);
    records.forEach(this::effect);
  }

  /** Names its failed record: item-2 fails once. */
  @Deduplicated
  @KafkaListener(topics = "${test.item}", groupId = "batch-item", batch = "true")
  void namesTheFailedRecord(List<ConsumerRecord<String, String>> records) {
    called("item", records);
    for (int i = 0; i < records.size(); i++) {
      effect(records.get(i));
      if (records.get(i).key().equals("item-2") && item2Attempts.incrementAndGet() == 1) {
        throw new BatchListenerFailedException(
            "item-2 failed", new IllegalStateException("item-2 transient"), i);
      }
    }
  }

  /** Does not say which record failed: a call holding bis-bad fails, the first three times. */
  @Deduplicated
  @KafkaListener(topics = "${test.bisect}", groupId = "batch-bisect", batch = "true")
  void failsWithoutNamingTheRecord(List<ConsumerRecord<String, String>> records) {
    called("bisect", records);
    records.forEach(this::effect);
    if (keys(records).contains("bis-bad") && badAttempts.incrementAndGet() <= 3) {
      throw new IllegalStateException("bad record");
    }
  }

  /** The keys of each call of a listener. A method: the bean is a proxy. */
  List<List<String>> calls(String listener) {
    return calls.getOrDefault(listener, List.of());
  }

  /** In a transaction of its own: tx-1 fails once, and nothing of the batch can commit apart. */
  @Transactional
  @Deduplicated
  @KafkaListener(topics = "${test.joined}", groupId = "batch-joined", batch = "true")
  void inItsOwnTransaction(List<ConsumerRecord<String, String>> records) {
    called("joined", records);
    records.forEach(this::effect);
    if (keys(records).contains("tx-1") && tx1Attempts.incrementAndGet() == 1) {
      throw new IllegalStateException("tx-1 transient");
    }
  }

  private void effect(ConsumerRecord<String, String> record) {
    jdbc.update("INSERT INTO effects (k) VALUES (?)", record.key());
  }

  private void called(String listener, List<ConsumerRecord<String, String>> records) {
    calls.computeIfAbsent(listener, k -> new CopyOnWriteArrayList<>()).add(keys(records));
  }

  private static List<String> keys(List<ConsumerRecord<String, String>> records) {
    return records.stream().map(ConsumerRecord::key).toList();
  }
}
