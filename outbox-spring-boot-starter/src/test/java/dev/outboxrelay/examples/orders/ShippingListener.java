package dev.outboxrelay.examples.orders;

import dev.outboxrelay.spring.Deduplicated;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * The shipping side: one shipment per {@code OrderPlaced} event. {@link Deduplicated} runs the
 * insert and the dedup record in one transaction, so a redelivered event ships nothing twice.
 */
@Component
public class ShippingListener {
  private final JdbcTemplate jdbc;

  public ShippingListener(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @Deduplicated
  @KafkaListener(topics = "${orders.topic}", groupId = "shipping")
  public void onOrderEvent(ConsumerRecord<String, String> event) {
    jdbc.update(
        "INSERT INTO shipments (order_id, details) VALUES (?, ?)", event.key(), event.value());
  }
}
