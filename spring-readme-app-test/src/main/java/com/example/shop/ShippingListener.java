package com.example.shop;

import dev.outboxrelay.spring.Deduplicated;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/** One shipment per order, however often Kafka delivers its message. */
@Component
public class ShippingListener {
  private final JdbcTemplate jdbc;

  public ShippingListener(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
  }

  @Deduplicated
  @KafkaListener(topics = "outbox.event.order", groupId = "shipping")
  public void onOrder(ConsumerRecord<String, String> event) {
    jdbc.update("INSERT INTO shipments (order_id) VALUES (?)", event.key());
  }
}
