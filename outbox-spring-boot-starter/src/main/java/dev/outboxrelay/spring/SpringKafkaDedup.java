package dev.outboxrelay.spring;

import dev.outboxrelay.dedup.KafkaDedup;
import dev.outboxrelay.dedup.Outcome;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * {@link SpringDedup} for Kafka records: the message id is the record's {@code id} header (the
 * outbox message contract). Defined when kafka-clients is on the classpath. Thread-safe.
 *
 * <pre>{@code
 * @KafkaListener(topics = "outbox.event.order", groupId = "billing")
 * void on(ConsumerRecord<String, String> record) {
 *   dedup.handle(record, () -> jdbc.update("INSERT INTO invoices ...", record.key()));
 * }
 * }</pre>
 */
public final class SpringKafkaDedup {
  private final SpringDedup dedup;

  SpringKafkaDedup(SpringDedup dedup) {
    this.dedup = dedup;
  }

  /**
   * Runs {@code work} once per record id, in the default group, in one Spring-managed transaction
   * with the dedup record; returns after commit. Return from the listener only after this returned,
   * so the container commits the offset after the database commit.
   *
   * @return PROCESSED, or DUPLICATE when the work was skipped
   * @throws dev.outboxrelay.core.InvalidMessageException if the record has no {@code id} header
   * @throws RuntimeException what the work threw, after rollback: let the container redeliver
   */
  public Outcome handle(ConsumerRecord<?, ?> record, SpringDedup.Work work) {
    return dedup.handle(KafkaDedup.identity(record), work);
  }

  /** As {@link #handle(ConsumerRecord, SpringDedup.Work)} in an explicit consumer group. */
  public Outcome handle(String group, ConsumerRecord<?, ?> record, SpringDedup.Work work) {
    return dedup.handle(group, KafkaDedup.identity(record), work);
  }
}
