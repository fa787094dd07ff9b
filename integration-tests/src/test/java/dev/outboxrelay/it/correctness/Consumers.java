package dev.outboxrelay.it.correctness;

import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.dedup.KafkaDedup;
import dev.outboxrelay.dedup.RocketMqDedup;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Dedup consumers in batch mode whose handler applies one effect row per new message in the same
 * transaction as the batch's dedup records ({@link HandlerFaults}, which also injects handler
 * failures): {@code effect} has no unique key, so a second effect of an id is visible to the
 * checker.
 */
final class Consumers {
  static final String GROUP = "correctness";

  private Consumers() {}

  static Dedup dedup(DataSource ds) {
    return dedup(ds, new DedupListener() {});
  }

  /**
   * The group's dedup, high-water mark on as users run it: a message the mark skipped (STALE) has a
   * fresh id, so it would be a committed message never applied, which the checker reports as a
   * missing effect. Messages of writers without key order are deduped by id only, counted by the
   * listener's {@code onUnorderedSequence}.
   */
  static Dedup dedup(DataSource ds, DedupListener listener) {
    DedupStore store = DedupStore.builder().dataSource(ds).build();
    store.createIfMissing();
    return Dedup.builder().store(store).group(GROUP).highWaterMark(true).listener(listener).build();
  }

  /**
   * A Kafka consumer loop of the group in batch mode (the default: one transaction per polled batch
   * of a partition, up to the batch size, 1000 by default, here max.poll.records 200); offsets are
   * committed only after the database commit, and after a failure only up to the committed prefix
   * (the failed record is sought back to). With {@code concurrency} > 1 its partitions run in lanes
   * on worker threads.
   */
  static DedupKafkaConsumer<String, byte[]> kafka(
      Dedup dedup,
      HandlerFaults faults,
      String bootstrap,
      String topic,
      String name,
      int concurrency) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("group.id", GROUP);
    p.put("auto.offset.reset", "earliest");
    p.put("enable.auto.commit", "false");
    p.put("max.poll.records", "200");
    // A fetch waits up to 100 ms for 16 kB, as a batch consumer would be tuned: the polled batches
    // (one transaction each) hold several records, so injected failures land inside them too.
    p.put("fetch.min.bytes", "16384");
    p.put("fetch.max.wait.ms", "100");
    // A killed member's partitions move after this long (the broker's minimum), not 45 s.
    p.put("session.timeout.ms", "6000");
    p.put("heartbeat.interval.ms", "1000");
    return DedupKafkaConsumer.<String, byte[]>builder()
        .dedup(dedup)
        .topics(List.of(topic))
        .consumerProperties(p)
        .deserializers(new StringDeserializer(), new ByteArrayDeserializer())
        .name(name)
        .concurrency(concurrency)
        .failureBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
        .batchHandler(faults.handler(KafkaDedup::identity))
        .build()
        .start();
  }

  /**
   * An orderly RocketMQ push consumer of the group; each delivered batch of up to 16 messages of a
   * queue runs in one transaction.
   */
  static DefaultMQPushConsumer rocketMq(
      Dedup dedup, HandlerFaults faults, String nameServer, String topic) throws MQClientException {
    DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(GROUP);
    consumer.setNamesrvAddr(nameServer);
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.setConsumeThreadMin(2);
    consumer.setConsumeThreadMax(2);
    consumer.setSuspendCurrentQueueTimeMillis(200);
    consumer.setConsumeMessageBatchMaxSize(16);
    consumer.subscribe(topic, "*");
    consumer.setMessageListener(
        RocketMqDedup.orderlyBatch(dedup, faults.<MessageExt>handler(RocketMqDedup::identity)));
    consumer.start();
    return consumer;
  }
}
