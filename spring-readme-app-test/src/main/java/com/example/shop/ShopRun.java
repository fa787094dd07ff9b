package com.example.shop;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Places {@code shop.orders} orders (every tenth refused), waits up to {@code shop.wait} for their
 * shipments, then prints what an operator would look at: the shipments, the outbox health
 * indicator's status and the {@code outbox_*} meters. The exit code is 0 only if every committed
 * order was shipped, the outbox reports UP and its meters are registered.
 */
@Component
public class ShopRun implements ApplicationRunner, ExitCodeGenerator {
  private final OrderService orders;
  private final JdbcTemplate jdbc;
  private final HealthIndicator outboxHealth;
  private final MeterRegistry meters;
  private final int count;
  private final Duration wait;
  private volatile int exitCode = 1;

  public ShopRun(
      OrderService orders,
      JdbcTemplate jdbc,
      @Qualifier("outboxHealthIndicator") HealthIndicator outboxHealth,
      MeterRegistry meters,
      @Value("${shop.orders:20}") int count,
      @Value("${shop.wait:PT60S}") Duration wait) {
    this.orders = orders;
    this.jdbc = jdbc;
    this.outboxHealth = outboxHealth;
    this.meters = meters;
    this.count = count;
    this.wait = wait;
  }

  @Override
  public void run(ApplicationArguments args) throws InterruptedException {
    jdbc.execute("CREATE TABLE IF NOT EXISTS orders (id VARCHAR(64) PRIMARY KEY)");
    jdbc.execute("CREATE TABLE IF NOT EXISTS shipments (order_id VARCHAR(64) NOT NULL)");
    int committed = 0;
    for (int i = 1; i <= count; i++) {
      try {
        orders.placeOrder("order-" + i, i % 10 == 0);
        committed++;
      } catch (IllegalStateException refused) {
        // rolled back: no order, no message
      }
    }
    long deadline = System.nanoTime() + wait.toNanos();
    int shipped = shipped();
    while (shipped < committed && System.nanoTime() < deadline) {
      Thread.sleep(100);
      shipped = shipped();
    }
    String status = outboxHealth.health().getStatus().getCode();
    Set<String> outboxMeters = new TreeSet<>();
    meters.getMeters().stream()
        .map(m -> m.getId().getName())
        .filter(n -> n.startsWith("outbox"))
        .forEach(outboxMeters::add);
    System.out.printf("shop: placed %d, committed %d, shipped %d%n", count, committed, shipped);
    System.out.println("shop: outbox health " + status);
    System.out.println("shop: outbox meters " + outboxMeters);
    exitCode = shipped == committed && "UP".equals(status) && !outboxMeters.isEmpty() ? 0 : 1;
  }

  private int shipped() {
    return jdbc.queryForObject("SELECT COUNT(*) FROM shipments", Integer.class);
  }

  @Override
  public int getExitCode() {
    return exitCode;
  }
}
