package dev.outboxrelay.it.correctness;

import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupHandler;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.dedup.KafkaDedup;
import dev.outboxrelay.dedup.RocketMqDedup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Dedup consumers whose handler applies one effect row in the same transaction as the dedup record:
 * {@code effect} has no unique key, so a second effect of an id is visible to the checker.
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

  static void applyEffect(Connection c, String id, String key) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO effect (message_id, k) VALUES (?, ?)")) {
      ps.setString(1, id);
      ps.setString(2, key);
      ps.executeUpdate();
    }
  }

  /** A Kafka consumer loop of the group; offsets are committed only after the database commit. */
  static DedupKafkaConsumer<String, byte[]> kafka(
      Dedup dedup, String bootstrap, String topic, String name) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("group.id", GROUP);
    p.put("auto.offset.reset", "earliest");
    p.put("enable.auto.commit", "false");
    p.put("max.poll.records", "200");
    // A killed member's partitions move after this long (the broker's minimum), not 45 s.
    p.put("session.timeout.ms", "6000");
    p.put("heartbeat.interval.ms", "1000");
    DedupHandler<ConsumerRecord<String, byte[]>> handler =
        (c, r) -> applyEffect(c, KafkaDedup.identity(r).id(), r.key());
    return DedupKafkaConsumer.<String, byte[]>builder()
        .dedup(dedup)
        .topics(List.of(topic))
        .consumerProperties(p)
        .deserializers(new StringDeserializer(), new ByteArrayDeserializer())
        .name(name)
        .failureBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
        .handler(handler)
        .build()
        .start();
  }

  /** An orderly RocketMQ push consumer of the group. */
  static DefaultMQPushConsumer rocketMq(Dedup dedup, String nameServer, String topic)
      throws MQClientException {
    DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(GROUP);
    consumer.setNamesrvAddr(nameServer);
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.setConsumeThreadMin(2);
    consumer.setConsumeThreadMax(2);
    consumer.setSuspendCurrentQueueTimeMillis(200);
    consumer.subscribe(topic, "*");
    DedupHandler<MessageExt> handler =
        (c, m) -> applyEffect(c, RocketMqDedup.identity(m).id(), RocketMqDedup.identity(m).key());
    consumer.setMessageListener(RocketMqDedup.orderly(dedup, handler));
    consumer.start();
    return consumer;
  }
}
