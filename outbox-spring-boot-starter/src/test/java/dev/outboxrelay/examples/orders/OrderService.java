package dev.outboxrelay.examples.orders;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.spring.SpringOutbox;
import jakarta.persistence.EntityManager;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Places orders: the order (JPA), the stock update (JDBC) and the event (outbox) commit or roll
 * back together, in the one transaction of Spring Boot's JpaTransactionManager.
 */
@Service
public class OrderService {
  private final EntityManager entities;
  private final JdbcTemplate jdbc;
  private final SpringOutbox outbox;

  public OrderService(EntityManager entities, JdbcTemplate jdbc, SpringOutbox outbox) {
    this.entities = entities;
    this.jdbc = jdbc;
    this.outbox = outbox;
  }

  /**
   * Places an order and records {@code OrderPlaced} for the shipping service.
   *
   * @throws OutOfStockException after the order and the event were written: all rolls back
   */
  @Transactional
  public void placeOrder(String orderId, String item, int quantity) {
    entities.persist(new PurchaseOrder(orderId, item, quantity));
    outbox.save(
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId(orderId)
            .type("OrderPlaced")
            .payload("{\"item\":\"" + item + "\",\"quantity\":" + quantity + "}")
            .build());
    int reserved =
        jdbc.update(
            "UPDATE stock SET available = available - ? WHERE item = ? AND available >= ?",
            quantity,
            item,
            quantity);
    if (reserved == 0) {
      throw new OutOfStockException(item);
    }
  }

  /** Not enough stock: the order is refused and nothing of it remains. */
  public static class OutOfStockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OutOfStockException(String item) {
      super("Out of stock: " + item);
    }
  }
}
