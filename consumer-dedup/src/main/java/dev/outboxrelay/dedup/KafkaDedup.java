package dev.outboxrelay.dedup;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.dedup.internal.TracedMessage;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Dedup for Kafka records: the id comes from the {@code id} header, the key from the record key
 * (the {@code aggregateid}), the sequence from the {@code seq} header, the key-order promise from
 * the {@code seq-order} header (see {@link MessageIdentity}). Needs kafka-clients on the classpath.
 */
public final class KafkaDedup {
  private KafkaDedup() {}

  /**
   * The identity of a record of the outbox message contract.
   *
   * @throws dev.outboxrelay.core.InvalidMessageException if the {@code id} header is missing or the
   *     {@code seq} header is not a number
   */
  public static MessageIdentity identity(ConsumerRecord<?, ?> record) {
    Object k = record.key();
    String key =
        k == null
            ? null
            : k instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : k.toString();
    return new MessageIdentity(
        header(record, MessageContract.HEADER_ID),
        key,
        MessageIdentity.parseSequence(header(record, MessageContract.HEADER_SEQUENCE)),
        MessageIdentity.parseKeyOrdered(header(record, MessageContract.HEADER_SEQUENCE_ORDER)));
  }

  /**
   * Wraps a record handler for your own poll loop: each call runs the handler and the dedup record
   * in one transaction and returns after commit. Commit the record's offset only after it returns;
   * if it throws, seek back and redeliver. With OpenTelemetry's API on the classpath each call runs
   * in a consumer span whose parent is the record's {@code traceparent} (README, "Trace context").
   */
  public static <K, V> MessageHandler<ConsumerRecord<K, V>> recordHandler(
      Dedup dedup, DedupHandler<ConsumerRecord<K, V>> handler) {
    return dedup.transactional(KafkaDedup::identity, KafkaDedup::traced, handler);
  }

  /** The record's topic, id and W3C trace headers, for its consumer span. */
  static TracedMessage traced(ConsumerRecord<?, ?> record) {
    return new TracedMessage(
        "kafka",
        record.topic(),
        header(record, MessageContract.HEADER_ID),
        header(record, MessageContract.HEADER_TRACEPARENT),
        header(record, MessageContract.HEADER_TRACESTATE));
  }

  private static String header(ConsumerRecord<?, ?> record, String name) {
    Header h = record.headers().lastHeader(name);
    return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }
}
