package com.example.shop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A shop as a user writes it with the starter: {@link OrderService} saves an order and its {@code
 * OrderPlaced} message in one {@code @Transactional} method, the embedded relay publishes it, and
 * {@link ShippingListener} ships each order once. {@link ShopRun} places the orders, waits for the
 * shipments and reports, then the application exits: 0 when every committed order was shipped.
 */
@SpringBootApplication
public class ShopApplication {
  public static void main(String[] args) {
    System.exit(SpringApplication.exit(SpringApplication.run(ShopApplication.class, args)));
  }
}
