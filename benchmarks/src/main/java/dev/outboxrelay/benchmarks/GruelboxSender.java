package dev.outboxrelay.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The invocation gruelbox transaction-outbox schedules and later runs: send one record and wait for
 * its acknowledgement (so the entry is deleted only after the broker has it). Public and not final:
 * transaction-outbox proxies it.
 */
public class GruelboxSender {
  private final KafkaProducer<byte[], byte[]> producer;

  public GruelboxSender(KafkaProducer<byte[], byte[]> producer) {
    this.producer = producer;
  }

  /** Sends and waits for the broker's acknowledgement. */
  public void send(String topic, String key, String id, String payload) {
    RecordHeaders h = new RecordHeaders();
    h.add("id", utf8(id));
    h.add("type", utf8("OrderPlaced"));
    h.add("aggregatetype", utf8("order"));
    try {
      producer.send(new ProducerRecord<>(topic, null, utf8(key), utf8(payload), h)).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("send failed", e.getCause());
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
