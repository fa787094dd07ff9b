package dev.outboxrelay.examples.orders;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The example orders service: {@link OrderService} writes an order and its {@code OrderPlaced}
 * event in one {@code @Transactional} method; the starter's embedded relay publishes the event to
 * Kafka; {@link ShippingListener} creates the shipment once per event, however often Kafka delivers
 * it. Settings: {@code application.properties} beside it, plus the database and broker addresses
 * ({@code spring.datasource.*}, {@code spring.kafka.bootstrap-servers}).
 */
@SpringBootApplication
public class OrdersApplication {
  public static void main(String[] args) {
    SpringApplication.run(OrdersApplication.class, args);
  }
}
