package dev.outboxrelay.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * K: how fast one idempotent, acks=all producer with the shared batching settings gets records of
 * the same shape as ours (key, 256 B payload, the contract's headers) acknowledged.
 */
final class RawKafka {
  static final int WINDOW = 50_000;

  private RawKafka() {}

  /** Sends {@code n} records; returns acknowledged msg/s (first send to last ack). */
  static double run(Kafka kafka, int n, int payloadBytes) throws InterruptedException {
    String topic = kafka.newTopicPrefix("raw") + "order";
    Map<String, Object> props = new HashMap<>(kafka.producerSettings());
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
      send(producer, topic, Math.max(1000, n / 5), payloadBytes); // warm-up
      long t0 = System.nanoTime();
      send(producer, topic, n, payloadBytes);
      return n / ((System.nanoTime() - t0) / 1e9);
    }
  }

  private static void send(KafkaProducer<byte[], byte[]> producer, String topic, int n, int size)
      throws InterruptedException {
    byte[] payload = Backlog.payload(size);
    CountDownLatch acks = new CountDownLatch(n);
    AtomicReference<Exception> failure = new AtomicReference<>();
    // At most WINDOW records unacknowledged: enough to keep every batch full, and no record waits
    // so long in the producer's buffer that it expires on a slow (shared) machine.
    Semaphore window = new Semaphore(WINDOW);
    for (int i = 0; i < n; i++) {
      window.acquire();
      RecordHeaders h = new RecordHeaders();
      h.add("id", utf8(UUID.randomUUID().toString()));
      h.add("type", utf8("OrderPlaced"));
      h.add("aggregatetype", utf8("order"));
      h.add("seq", utf8(Integer.toString(i)));
      producer.send(
          new ProducerRecord<>(topic, null, utf8("k" + (i % Backlog.KEYS)), payload, h),
          (md, e) -> {
            if (e != null) {
              failure.compareAndSet(null, e);
            }
            window.release();
            acks.countDown();
          });
    }
    if (!acks.await(5, TimeUnit.MINUTES) || failure.get() != null) {
      throw new IllegalStateException("raw Kafka send failed: " + failure.get());
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
