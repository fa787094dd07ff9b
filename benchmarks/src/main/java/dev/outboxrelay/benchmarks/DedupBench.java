package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Dedup consumer throughput: {@code n} contract messages are put on a topic first; then one {@link
 * DedupKafkaConsumer} (3 partitions) runs a no-op handler, so each record costs its dedup
 * transaction (insert of the id, high-water mark per key) and the offset commits.
 */
final class DedupBench {
  private final Kafka kafka;
  private final int payloadBytes;

  DedupBench(Kafka kafka, int payloadBytes) {
    this.kafka = kafka;
    this.payloadBytes = payloadBytes;
  }

  double run(Db db, int n) throws Exception {
    String prefix = kafka.newTopicPrefix("dedup-" + db.kind);
    try (KafkaPublisher publisher = kafka.publisher(prefix)) {
      for (int done = 0; done < n; done += 1000) {
        List<OutboxMessage> batch = new ArrayList<>();
        for (int i = done; i < Math.min(n, done + 1000); i++) {
          batch.add(
              OutboxMessage.builder()
                  .aggregateType("order")
                  .aggregateId("k" + (i % Backlog.KEYS))
                  .type("OrderPlaced")
                  .payload(Backlog.payload(payloadBytes))
                  .sequence(i)
                  .build());
        }
        List<PublishResult> results = publisher.publish(batch).toCompletableFuture().get();
        if (!results.stream().allMatch(PublishResult::isAcknowledged)) {
          throw new IllegalStateException("could not fill the dedup topic");
        }
      }
    }
    DedupStore store = DedupStore.builder().dataSource(db.ds).build();
    store.createIfMissing();
    Dedup dedup = Dedup.builder().store(store).group("bench").build();
    AtomicLong handled = new AtomicLong();
    Properties props = new Properties();
    props.put("bootstrap.servers", kafka.bootstrap);
    props.put("group.id", "bench-" + prefix);
    props.put("auto.offset.reset", "earliest");
    props.put("max.poll.records", "500");
    long t0 = System.nanoTime();
    try (DedupKafkaConsumer<byte[], byte[]> consumer =
        DedupKafkaConsumer.<byte[], byte[]>builder()
            .dedup(dedup)
            .topics(List.of(prefix + "order"))
            .consumerProperties(props)
            .deserializers(new ByteArrayDeserializer(), new ByteArrayDeserializer())
            .handler((connection, record) -> handled.incrementAndGet())
            .build()
            .start()) {
      long first = 0;
      long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
      while (handled.get() < n) {
        if (first == 0 && handled.get() > 0) {
          first = System.nanoTime();
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("dedup consumer: " + handled.get() + " of " + n);
        }
        Kafka.sleep(2);
      }
      long from = first == 0 ? t0 : first;
      return n / ((System.nanoTime() - from) / 1e9);
    }
  }
}
