package dev.outboxrelay.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;

/**
 * The Kafka consumer loop and record-handler wrapper against a real broker, one subclass per
 * database; the batch-mode tests come from {@link KafkaBatchContract}.
 */
abstract class KafkaDedupContract extends KafkaBatchContract {
  @Test
  void crashBetweenDatabaseCommitAndOffsetCommitHasOneEffect() throws Exception {
    String group = "crash-" + topic;
    send(30);
    MessageHandler<ConsumerRecord<String, String>> handler =
        KafkaDedup.recordHandler(countingDedup(group), recordEffect());
    try (KafkaConsumer<String, String> crashing = new KafkaConsumer<>(consumerProperties(group))) {
      crashing.subscribe(List.of(topic));
      await()
          .atMost(TIMEOUT)
          .until(
              () -> {
                crashing.poll(Duration.ofMillis(100)).forEach(handler::handle);
                return effects() == 30;
              });
    } // closed without committing offsets: the crash
    assertThat(committed(group)).isZero();

    started(loop(group, recordEffect()));

    await().atMost(TIMEOUT).until(() -> committed(group) == 30);
    assertThat(duplicates).hasValue(30);
    assertThat(effects()).isEqualTo(30);
  }

  @Test
  void secondConsumerJoiningMidStreamCausesNoSecondEffect() throws Exception {
    String group = "rebalance-" + topic;
    AtomicInteger byFirst = new AtomicInteger();
    AtomicInteger bySecond = new AtomicInteger();
    DedupKafkaConsumer<String, String> first = started(loop(group, counting(byFirst)));
    List<String> ids = send(300);
    for (String id : ids.subList(0, 20)) {
      send("order-0", id); // raw broker duplicates
    }
    producer.flush();
    await().atMost(TIMEOUT).until(() -> effects() >= 30);

    DedupKafkaConsumer<String, String> second = started(loop(group, counting(bySecond)));
    await()
        .atMost(TIMEOUT)
        .until(() -> !second.assignment().isEmpty() && first.assignment().size() < 4);
    send(300);

    await().atMost(TIMEOUT).until(() -> committed(group) == 620);
    assertThat(effects()).isEqualTo(600);
    assertThat(distinctEffects()).isEqualTo(600);
    assertThat(duplicates.get()).isGreaterThanOrEqualTo(20);
    assertThat(bySecond.get()).isPositive();
    assertThat(byFirst.get() + bySecond.get()).isEqualTo(600);
  }

  @Test
  void perRecordModeLeavesNoRecordOfAFailingHandlerAndRedeliversIt() throws Exception {
    String group = "failing-" + topic;
    AtomicBoolean failing = new AtomicBoolean(true);
    AtomicInteger failures = new AtomicInteger();
    List<String> ids = send(10);
    String poison = ids.get(3);
    started(
        loop(group)
            .perRecord(true)
            .handler(
                (c, r) -> {
                  String id = KafkaDedup.identity(r).id();
                  insertEffect(c, id);
                  if (id.equals(poison) && failing.get()) {
                    failures.incrementAndGet();
                    throw new IllegalStateException("downstream unavailable");
                  }
                })
            .build());

    await().atMost(TIMEOUT).until(() -> failures.get() >= 3);
    assertThat(store.isProcessed(group, poison)).isFalse();
    assertThat(effects(poison)).isZero();

    failing.set(false);
    await().atMost(TIMEOUT).until(() -> committed(group) == 10);
    assertThat(effects(poison)).isEqualTo(1);
    assertThat(effects()).isEqualTo(10);
    assertThat(store.isProcessed(group, poison)).isTrue();
  }

  static DedupHandler<ConsumerRecord<String, String>> counting(AtomicInteger counter) {
    return (c, r) -> {
      insertEffect(c, KafkaDedup.identity(r).id());
      counter.incrementAndGet();
    };
  }
}
