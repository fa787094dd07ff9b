package dev.outboxrelay.examples.orders;

import static org.awaitility.Awaitility.await;

import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.PostgresServer;
import java.time.Duration;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Runs the orders example on a private PostgreSQL and Kafka broker (started here, stopped at exit):
 * places orders, one of them refused, and prints what shipping saw.
 *
 * <pre>
 * mvn -B -q install -DskipTests
 * mvn -B -q -pl outbox-spring-boot-starter exec:java
 * </pre>
 */
public final class OrdersDemo {
  private OrdersDemo() {}

  public static void main(String[] args) {
    PostgresServer db = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = db.createDatabase();
    kafka.createTopic("outbox.event.order", 3);
    try (ConfigurableApplicationContext app =
        new SpringApplicationBuilder(OrdersApplication.class)
            .web(WebApplicationType.NONE)
            .run(
                "--spring.datasource.url=" + db.jdbcUrl(database),
                "--spring.datasource.username=" + db.user(),
                "--spring.datasource.password=" + db.password(),
                "--spring.kafka.bootstrap-servers=" + kafka.bootstrapServers())) {
      OrderService orders = app.getBean(OrderService.class);
      JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
      for (int i = 1; i <= 5; i++) {
        orders.placeOrder("order-" + i, "book", i);
        System.out.println("placed order-" + i);
      }
      try {
        orders.placeOrder("order-6", "rare-stamp", 1);
      } catch (OrderService.OutOfStockException e) {
        System.out.println("refused order-6: " + e.getMessage() + " (order and event rolled back)");
      }
      try {
        await().atMost(Duration.ofSeconds(30)).until(() -> shipments(jdbc) >= 5);
      } catch (ConditionTimeoutException e) {
        System.out.println("not all shipped within 30 s");
      }
      System.out.println(
          "shipments: "
              + shipments(jdbc)
              + " (expected 5), outbox rows left: "
              + jdbc.queryForObject("SELECT COUNT(*) FROM outbox", Long.class));
    }
  }

  private static long shipments(JdbcTemplate jdbc) {
    return jdbc.queryForObject("SELECT COUNT(*) FROM shipments", Long.class);
  }
}
