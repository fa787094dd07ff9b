package dev.outboxrelay.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * {@link DedupKafkaConsumer} in batch mode, the default: one database transaction per polled batch
 * (of all its partitions on the loop thread, of one partition on a lane). Records of one key share
 * a partition, so their order in a batch is known.
 */
abstract class KafkaBatchContract extends KafkaFixture {
  /** The transactions handlers ran in: Hikari hands out a new connection proxy per checkout. */
  final Set<Connection> transactions = Collections.newSetFromMap(new IdentityHashMap<>());

  @Test
  void aPolledBatchHoldingOneIdTwiceHasOneEffect() throws Exception {
    String group = "twice-" + topic;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add(newId());
      send("order-1", ids.get(i));
      if (i == 7) {
        send("order-1", ids.get(i)); // the same id twice, back to back
      }
    }
    producer.flush();

    started(loop(group, tracked(recordEffect())));

    await().atMost(TIMEOUT).until(() -> committed(group) == 21);
    assertThat(effects()).isEqualTo(20);
    assertThat(effects(ids.get(7))).isEqualTo(1);
    assertThat(duplicates).hasValue(1);
    assertThat(transactions.size()).as("transactions for 21 records").isLessThan(21);
  }

  @Test
  void aFailingRecordCommitsTheRecordsBeforeItOnceAndIsRedeliveredAfterThePause() throws Exception {
    String group = "failing-" + topic;
    List<String> ids = sendOnOneKey(12);
    AtomicBoolean failing = new AtomicBoolean(true);
    AtomicInteger failures = new AtomicInteger();
    started(loop(group, (failingOn(ids.get(5), failing, failures))));

    await().atMost(TIMEOUT).until(() -> failures.get() >= 3 && committed(group) == 5);
    assertCommittedOnceBefore(group, ids, 5);

    failing.set(false);
    await().atMost(TIMEOUT).until(() -> committed(group) == 12);
    assertCommittedOnceBefore(group, ids, 12);
    assertThat(effects()).isEqualTo(12);
  }

  @Test
  void aBatchHandlerWritesABatchWithOneJdbcBatchAndABadRecordIsFoundByBisection() throws Exception {
    String group = "jdbc-batch-" + topic;
    List<String> ids = sendOnOneKey(40);
    String bad = ids.get(25);
    AtomicBoolean failing = new AtomicBoolean(true);
    AtomicInteger calls = new AtomicInteger();
    started(
        loop(group)
            .batchHandler(
                (c, records) -> {
                  calls.incrementAndGet();
                  try (PreparedStatement ps =
                      c.prepareStatement("INSERT INTO effects (message_id) VALUES (?)")) {
                    for (ConsumerRecord<String, String> r : records) {
                      ps.setString(1, KafkaDedup.identity(r).id());
                      ps.addBatch();
                    }
                    ps.executeBatch();
                  }
                  if (failing.get() && records.stream().anyMatch(r -> id(r).equals(bad))) {
                    throw new IllegalStateException("one bad record somewhere in the batch");
                  }
                })
            .build());

    await().atMost(TIMEOUT).until(() -> committed(group) == 25 && calls.get() >= 10);
    assertCommittedOnceBefore(group, ids, 25);

    failing.set(false);
    await().atMost(TIMEOUT).until(() -> committed(group) == 40);
    assertCommittedOnceBefore(group, ids, 40);
    assertThat(effects()).isEqualTo(40);
  }

  @Test
  void aHaltAfterTheDatabaseCommitBeforeTheOffsetCommitHasNoSecondEffect() throws Exception {
    String group = "halt-" + topic;
    send(30);
    AtomicBoolean halt = new AtomicBoolean(true);
    Dedup halting =
        dedup(
            group,
            (m, outcome) -> {
              if (halt.compareAndSet(true, false)) { // after the commit, before the offsets
                throw new Error("the consumer dies here");
              }
            });
    DedupKafkaConsumer<String, String> dying =
        started(loop(group).dedup(halting).handler(recordEffect()).build());

    await().atMost(TIMEOUT).until(() -> !dying.isRunning());
    assertThat(committed(group)).as("offsets committed").isLessThan(effects());

    started(loop(group, recordEffect()));
    await().atMost(TIMEOUT).until(() -> committed(group) == 30);
    assertThat(effects()).isEqualTo(30);
    assertThat(distinctEffects()).isEqualTo(30);
    assertThat(duplicates).hasPositiveValue();
  }

  @Test
  void eachKeyCommitsInOrderAndAFailureHoldsOnlyItsOwnPartition() throws Exception {
    String group = "lanes-" + topic;
    List<String> ids = send(200); // ten keys over the topic's four partitions
    String poison = ids.get(51); // order-1
    int poisonPartition = partition("order-1");
    long held = // the poison and what follows it in its partition
        IntStream.range(51, ids.size())
            .filter(i -> partition("order-" + (i % 10)) == poisonPartition)
            .count();
    Map<String, List<Long>> committedSeqs = new ConcurrentHashMap<>();
    Set<String> threads = ConcurrentHashMap.newKeySet();
    AtomicBoolean failing = new AtomicBoolean(true);
    AtomicInteger failures = new AtomicInteger();
    DedupHandler<ConsumerRecord<String, String>> failingOnPoison =
        failingOn(poison, failing, failures);
    Dedup recordingOrder =
        dedup(
            group,
            (m, outcome) -> {
              if (outcome == Outcome.PROCESSED) { // after the commit, in commit order
                committedSeqs
                    .computeIfAbsent(m.key(), k -> Collections.synchronizedList(new ArrayList<>()))
                    .add(m.sequence());
              }
            });
    started(
        loop(group)
            .dedup(recordingOrder)
            .handler(
                (c, r) -> {
                  threads.add(Thread.currentThread().getName());
                  failingOnPoison.handle(c, r);
                })
            .build());

    await().atMost(TIMEOUT).until(() -> failures.get() >= 3 && effects() == 200 - held);
    assertThat(effects(poison)).isZero();

    failing.set(false);
    await().atMost(TIMEOUT).until(() -> committed(group) == 200);
    assertThat(effects()).isEqualTo(200);
    assertThat(distinctEffects()).isEqualTo(200);
    assertThat(committedSeqs).hasSize(10);
    committedSeqs.forEach(
        (key, seqs) -> assertThat(seqs).as("%s in commit order", key).hasSize(20).isSorted());
    if (concurrency() == 1) {
      assertThat(threads).containsOnly("dedup-kafka-" + group);
    } else {
      assertThat(threads).hasSizeGreaterThan(1).noneMatch(t -> t.equals("dedup-kafka-" + group));
    }
  }

  @Test
  void onTheLoopThreadAPollsPartitionsShareATransactionWithLanesEachHasItsOwn() throws Exception {
    String group = "across-" + topic;
    send(200); // ten keys over the topic's four partitions, all there before the first poll
    List<Set<Integer>> calls = Collections.synchronizedList(new ArrayList<>());
    started(
        loop(group)
            .batchHandler(
                (c, records) -> {
                  Set<Integer> partitions = new TreeSet<>();
                  records.forEach(r -> partitions.add(r.partition()));
                  calls.add(partitions);
                  for (ConsumerRecord<String, String> r : records) {
                    recordEffect().handle(c, r);
                  }
                })
            .build());

    await().atMost(TIMEOUT).until(() -> committed(group) == 200);
    assertThat(effects()).isEqualTo(200);
    synchronized (calls) {
      if (concurrency() == 1) {
        assertThat(calls).as("partitions per transaction").anyMatch(p -> p.size() > 1);
      } else {
        assertThat(calls).as("partitions per transaction").allMatch(p -> p.size() == 1);
      }
    }
  }

  /** The partition Kafka's default partitioner picks for a key on the four-partition topic. */
  static int partition(String key) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % 4;
  }

  /** Sends records on one key, so one partition in this order; returns their ids. */
  List<String> sendOnOneKey(int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(newId());
      send("order-1", ids.get(i));
    }
    producer.flush();
    return ids;
  }

  /** The first {@code n} ids have one effect and are recorded, the rest neither. */
  void assertCommittedOnceBefore(String group, List<String> ids, int n) throws Exception {
    for (int i = 0; i < ids.size(); i++) {
      assertThat(effects(ids.get(i))).as("effects of record %d", i).isEqualTo(i < n ? 1 : 0);
      assertThat(store.isProcessed(group, ids.get(i))).as("record %d", i).isEqualTo(i < n);
    }
  }

  DedupHandler<ConsumerRecord<String, String>> tracked(
      DedupHandler<ConsumerRecord<String, String>> handler) {
    return (c, r) -> {
      synchronized (transactions) {
        transactions.add(c);
      }
      handler.handle(c, r);
    };
  }

  static DedupHandler<ConsumerRecord<String, String>> failingOn(
      String poison, AtomicBoolean failing, AtomicInteger failures) {
    return (c, r) -> {
      insertEffect(c, id(r));
      if (id(r).equals(poison) && failing.get()) {
        failures.incrementAndGet();
        throw new IllegalStateException("downstream unavailable");
      }
    };
  }

  static String id(ConsumerRecord<String, String> r) {
    return KafkaDedup.identity(r).id();
  }
}
