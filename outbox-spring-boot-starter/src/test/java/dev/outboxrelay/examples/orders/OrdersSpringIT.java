package dev.outboxrelay.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import dev.outboxrelay.micrometer.RelayMeter;
import dev.outboxrelay.spring.OutboxHealthIndicator;
import dev.outboxrelay.spring.OutboxRelayLifecycle;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.ReceivedMessage;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The example application against a real PostgreSQL and a real Kafka broker: order → outbox in
 * {@code @Transactional} → embedded polling relay → Kafka → {@code @Deduplicated} listener.
 */
class OrdersSpringIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  static final String TOPIC = "orders-" + UUID.randomUUID();
  static final Map<String, List<Outcome>> OUTCOMES = new ConcurrentHashMap<>();
  static ConfigurableApplicationContext app;
  static JdbcTemplate jdbc;
  static OrderService orders;

  @BeforeAll
  static void startTheApplication() {
    String db = DB.server().createDatabase();
    KAFKA.server().createTopic(TOPIC, 3);
    DedupListener outcomes =
        new DedupListener() {
          @Override
          public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
            OUTCOMES.computeIfAbsent(message.id(), k -> new CopyOnWriteArrayList<>()).add(outcome);
          }
        };
    app =
        new SpringApplicationBuilder(OrdersApplication.class)
            .web(WebApplicationType.NONE)
            .initializers(c -> c.getBeanFactory().registerSingleton("testOutcomes", outcomes))
            .run(
                "--spring.datasource.url=" + DB.server().jdbcUrl(db),
                "--spring.datasource.username=" + DB.server().user(),
                "--spring.datasource.password=" + DB.server().password(),
                "--spring.kafka.bootstrap-servers=" + KAFKA.server().bootstrapServers(),
                "--orders.topic=" + TOPIC,
                "--outbox.publisher.settings.topic-template=" + TOPIC,
                // Keep published rows, so "not in the table" also covers rows already relayed.
                "--outbox.relay.keep-for=1h");
    jdbc = app.getBean(JdbcTemplate.class);
    orders = app.getBean(OrderService.class);
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void aRolledBackOrderLeavesNoMessageInTheTableOrOnTheTopic() {
    String refused = "refused-" + UUID.randomUUID();
    assertThatThrownBy(() -> orders.placeOrder(refused, "rare-stamp", 1))
        .isInstanceOf(OrderService.OutOfStockException.class);
    String placed = placeAndAwaitShipment();

    assertThat(count("SELECT COUNT(*) FROM orders WHERE id = ?", refused)).isZero();
    assertThat(count("SELECT COUNT(*) FROM outbox WHERE aggregateid = ?", refused)).isZero();
    assertThat(count("SELECT COUNT(*) FROM outbox WHERE aggregateid = ?", placed)).isOne();
    List<ReceivedMessage> onTopic = topic();
    assertThat(onTopic).extracting(ReceivedMessage::key).doesNotContain(refused).contains(placed);
    assertThat(count("SELECT COUNT(*) FROM shipments WHERE order_id = ?", refused)).isZero();
  }

  @Test
  void aCommittedOrderIsDeliveredOnceAndShippedOnce() {
    String order = placeAndAwaitShipment();

    List<ReceivedMessage> records = topic().stream().filter(m -> m.key().equals(order)).toList();
    assertThat(records).hasSize(1);
    assertThat(records.get(0).headers()).containsEntry("type", "OrderPlaced");
    assertThat(OUTCOMES.get(records.get(0).headers().get("id"))).containsExactly(Outcome.PROCESSED);
    assertThat(count("SELECT COUNT(*) FROM shipments WHERE order_id = ?", order)).isOne();
  }

  @Test
  void aRedeliveredRecordHasNoSecondEffect() {
    String order = placeAndAwaitShipment();
    ReceivedMessage first =
        topic().stream().filter(m -> m.key().equals(order)).findFirst().orElseThrow();
    String id = first.headers().get("id");

    resend(first);
    await().atMost(Duration.ofSeconds(30)).until(() -> OUTCOMES.get(id), o -> o.size() == 2);

    assertThat(OUTCOMES.get(id)).containsExactly(Outcome.PROCESSED, Outcome.DUPLICATE);
    assertThat(topic().stream().filter(m -> m.key().equals(order))).hasSize(2);
    assertThat(count("SELECT COUNT(*) FROM shipments WHERE order_id = ?", order)).isOne();
  }

  @Test
  void ordersRunOnSpringBootsJpaTransactionManager() {
    assertThat(app.getBean(PlatformTransactionManager.class))
        .isInstanceOf(JpaTransactionManager.class);
  }

  @Test
  void relayHealthAndMetersReportTheRelay() {
    placeAndAwaitShipment();
    assertThat(app.getBean(OutboxRelayLifecycle.class).isAlive()).isTrue();
    var health = app.getBean(OutboxHealthIndicator.class).health();
    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails()).containsEntry("mode", "polling").containsKey("backlog");
    MeterRegistry meters = app.getBean(MeterRegistry.class);
    // The names and tags of the daemon's /metrics (outbox-micrometer's RelayMeter).
    for (RelayMeter meter : RelayMeter.values()) {
      assertThat(
              meters
                  .find(meter.meterName())
                  .tags("relay", "outbox-relay", "mode", "polling")
                  .meters())
          .as(meter.meterName())
          .isNotEmpty();
    }
    assertThat(
            meters
                .get("outbox.published")
                .tags("relay", "outbox-relay", "mode", "polling")
                .functionCounter()
                .count())
        .isPositive();
    assertThat(meters.get("outbox.backlog.messages").gauge().value()).isNotNaN();
    assertThat(
            meters
                .get("outbox.dedup.outcomes")
                .tags("group", "shipping", "outcome", "processed")
                .counter()
                .count())
        .isPositive();
  }

  private static String placeAndAwaitShipment() {
    String order = "order-" + UUID.randomUUID();
    orders.placeOrder(order, "book", 1);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count("SELECT COUNT(*) FROM shipments WHERE order_id = ?", order) > 0);
    return order;
  }

  private static long count(String sql, String arg) {
    return jdbc.queryForObject(sql, Long.class, arg);
  }

  private static List<ReceivedMessage> topic() {
    try (KafkaTopicReader reader = new KafkaTopicReader(KAFKA.server().bootstrapServers())) {
      return reader.readAll(TOPIC);
    }
  }

  /** The same record again, as a broker redelivery or a producer retry would bring it. */
  private static void resend(ReceivedMessage m) {
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", KAFKA.server().bootstrapServers()),
            new StringSerializer(),
            new ByteArraySerializer())) {
      ProducerRecord<String, byte[]> record = new ProducerRecord<>(TOPIC, m.key(), m.payload());
      m.headers().forEach((k, v) -> record.headers().add(k, v.getBytes(StandardCharsets.UTF_8)));
      producer.send(record);
    }
  }
}
