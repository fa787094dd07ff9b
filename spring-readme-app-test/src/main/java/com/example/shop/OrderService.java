package com.example.shop;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.spring.SpringOutbox;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The order and its message commit or roll back together. */
@Service
public class OrderService {
  private final JdbcTemplate jdbc;
  private final SpringOutbox outbox;

  public OrderService(JdbcTemplate jdbc, SpringOutbox outbox) {
    this.jdbc = jdbc;
    this.outbox = outbox;
  }

  /** Saves the order and its {@code OrderPlaced}; a refused order leaves neither. */
  @Transactional
  public void placeOrder(String orderId, boolean refused) {
    jdbc.update("INSERT INTO orders (id) VALUES (?)", orderId);
    outbox.save(
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId(orderId)
            .type("OrderPlaced")
            .payload("{\"order\":\"" + orderId + "\"}")
            .build());
    if (refused) {
      throw new IllegalStateException("order " + orderId + " refused");
    }
  }
}
