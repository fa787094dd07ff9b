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
