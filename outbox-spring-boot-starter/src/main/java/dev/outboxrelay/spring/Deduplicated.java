package dev.outboxrelay.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a listener method at most once per message id, in one Spring-managed transaction with the
 * dedup record (see {@link SpringDedup}). The method needs a Kafka {@code ConsumerRecord} parameter
 * (the id comes from its {@code id} header); on a redelivery the method is not called and returns
 * {@code null}. The transaction commits before the method returns to the listener container, so the
 * container commits the offset after it; if the method throws, everything rolls back and the
 * container's error handler redelivers the record.
 *
 * <pre>{@code
 * @Deduplicated
 * @KafkaListener(topics = "outbox.event.order", groupId = "shipping")
 * public void onOrder(ConsumerRecord<String, String> record) {
 *   jdbc.update("INSERT INTO shipment (order_id) VALUES (?)", record.key());
 * }
 * }</pre>
 *
 * <p>On a batch listener (a {@code List<ConsumerRecord<K, V>>} parameter; needs spring-kafka) the
 * whole batch is one transaction ({@link SpringDedup#handleBatch}): the ids are recorded in one
 * statement and the method is called once with the batch's new records only, in order (not at all
 * if none is new). If the method throws, the batch rolls back and runs again split, so the records
 * before the failing one commit once: at the record a {@code BatchListenerFailedException} names
 * (its index in the list the method was given, or the record), else found by halves. Then a {@code
 * BatchListenerFailedException} with the failed record's index in the container's list reaches the
 * error handler, which commits the offsets before it and retries from it.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Deduplicated {
  /**
   * Consumer group of the dedup records. Default: the {@code groupId} of the method's {@code
   * KafkaListener} when it is a literal, else {@code outbox.dedup.group}, else {@code
   * spring.kafka.consumer.group-id}.
   */
  String group() default "";
}
