package com.example.quickstart;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Plain JDBC: an order and its event commit in one transaction, and a relay in the same process
 * sends the event to Kafka. Arguments: JDBC URL, user, password, Kafka bootstrap servers.
 */
public final class QuickStart {
  public static void main(String[] args) throws Exception {
    try (HikariDataSource db = new HikariDataSource()) {
      db.setJdbcUrl(args[0]);
      db.setUsername(args[1]);
      db.setPassword(args[2]);
      try (Connection c = db.getConnection();
          Statement st = c.createStatement()) {
        // The outbox and relay tables (or Flyway, with the writer's scripts), and yours.
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
        st.execute("CREATE TABLE IF NOT EXISTS orders (id VARCHAR(36) PRIMARY KEY)");
      }

      Outbox outbox = Outbox.builder().build();
      String orderId = UUID.randomUUID().toString();
      try (Connection c = db.getConnection()) {
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (id) VALUES (?)")) {
          ps.setString(1, orderId);
          ps.executeUpdate(); // your business write
        }
        outbox.save(
            c,
            OutboxMessage.builder()
                .aggregateType("order") // topic outbox.event.order
                .aggregateId(orderId) // the record's key: per-key order
                .type("OrderPlaced")
                .payload("{\"id\":\"" + orderId + "\"}")
                .build());
        c.commit(); // both or neither
      }

      CountDownLatch sent = new CountDownLatch(1);
      RelayListener onSent =
          new RelayListener() {
            @Override
            public void onPublished(List<OutboxMessage> messages, Duration latency) {
              sent.countDown();
            }
          };
      try (KafkaPublisher kafka =
              KafkaPublisher.builder().producerProperty("bootstrap.servers", args[3]).build();
          PollingRelay relay =
              PollingRelay.builder().dataSource(db).publisher(kafka).listener(onSent).build()) {
        relay.start();
        if (!sent.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("nothing sent within 30 s");
        }
        System.out.println("OrderPlaced " + orderId + " sent to outbox.event.order");
      }
    }
  }
}
