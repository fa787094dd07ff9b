package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.micrometer.RelayMeter;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon jar as a separate process against a real PostgreSQL and Kafka: health, metrics, a
 * relayed message, park and unpark through the CLI, graceful SIGTERM releasing leases, and {@code
 * verify} finding and republishing a message deleted from the topic's view. The database password
 * and a TLS key password are canaries that must never appear in any output, with DEBUG logging.
 */
class DaemonProcessIT {
  private static final String TOPIC = "outbox.event.order";
  private static final String DB_CANARY = "canary-db-7f3a9";
  private static final String KEY_CANARY = "canary-key-51c2";
  private static final Duration CLI = Duration.ofSeconds(90);

  private static PostgresServer pg;
  private static KafkaServer kafka;
  private static HikariDataSource app;
  private static String database;

  @TempDir Path dir;
  private final List<DaemonProcess> started = new ArrayList<>();

  @BeforeAll
  static void servers() throws Exception {
    pg = PostgresServer.shared();
    kafka = KafkaServer.shared();
    database = pg.createDatabase();
    app = pg.dataSource(database, 4);
    try (Connection c = app.getConnection()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
    kafka.createTopic(TOPIC, 1);
  }

  @AfterAll
  static void closePool() {
    app.close();
  }

  @Test
  void runsAsAServiceAndTheOperatorToolsWork() throws Exception {
    Path config = writeConfig();
    Map<String, String> env = Map.of("OUTBOX_LOG_LEVEL", "DEBUG");
    Instant t0 = Instant.now().minusSeconds(5);
    DaemonProcess daemon = track(DaemonProcess.run(config, env));

    assertThat(get(daemon, "/health/live")).isEqualTo("200 {\"status\":\"UP\"}");
    // Ready means relaying: the polling relay owns every bucket, the CDC relay streams (its owner
    // is the database session holding the source lock).
    // (Awaited: the first leases may come a moment after the ready line on a loaded machine.)
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertReadyWithBothRelays(daemon));

    // Two relays in one process: the CDC relay on its own table publishes too.
    OutboxMessage payment =
        OutboxMessage.builder()
            .aggregateType("payment")
            .aggregateId("payment-1")
            .type("PaymentCaptured")
            .payload("{}")
            .build();
    try (Connection c = app.getConnection()) {
      c.setAutoCommit(false);
      Outbox.builder()
          .table(OutboxTable.builder().name("payments_outbox").build())
          .build()
          .save(c, payment);
      c.commit();
    }

    List<OutboxMessage> sent = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      sent.add(message("order-" + (i % 5), "{\"n\":" + i + "}"));
    }
    byte[] big = new byte[50_000];
    Arrays.fill(big, (byte) 'x');
    List<OutboxMessage> poisonKey =
        List.of(
            OutboxMessage.builder()
                .aggregateType("order")
                .aggregateId("poison")
                .type("OrderPlaced")
                .payload(big)
                .build(),
            message("poison", "{\"after\":1}"),
            message("poison", "{\"after\":2}"));
    save(sent);
    save(poisonKey);

    KafkaTopicReader reader = new KafkaTopicReader(kafka.bootstrapServers());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> reader.readAll("outbox.event.payment").size() == 1);
    assertThat(reader.readAll("outbox.event.payment").get(0).id()).isEqualTo(payment.id());
    await().atMost(Duration.ofSeconds(60)).until(() -> reader.readAll(TOPIC).size() >= 20);
    // Order holds per key (the relay claims key buckets in lanes, so keys interleave freely).
    List<ReceivedMessage> received = reader.readAll(TOPIC);
    assertThat(received)
        .extracting(ReceivedMessage::id)
        .containsExactlyInAnyOrderElementsOf(sent.stream().map(OutboxMessage::id).toList());
    for (int k = 0; k < 5; k++) {
      String key = "order-" + k;
      assertThat(received.stream().filter(r -> r.key().equals(key)).map(ReceivedMessage::id))
          .as("order of " + key)
          .containsExactlyElementsOf(
              sent.stream()
                  .filter(m -> m.aggregateId().equals(key))
                  .map(OutboxMessage::id)
                  .toList());
    }

    OutboxAdmin admin = OutboxAdmin.of(app, OutboxTable.defaults());
    await().atMost(Duration.ofSeconds(30)).until(() -> admin.parked().size() == 1);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(get(daemon, "/metrics"))
                    .contains("outbox_published_total{mode=\"polling\",relay=\"orders\"} 20.0")
                    .contains("outbox_parked_keys{mode=\"polling\",relay=\"orders\"} 1.0")
                    .contains("outbox_backlog_messages{mode=\"polling\",relay=\"orders\"} 3.0")
                    .contains("outbox_owned_buckets{mode=\"polling\",relay=\"orders\"} 256.0")
                    .contains(
                        "outbox_errors_total{kind=\"rejected\",mode=\"polling\",relay=\"orders\"}"
                            + " 1.0")
                    .contains(
                        "outbox_errors_total{kind=\"publish\",mode=\"polling\",relay=\"orders\"}"
                            + " 0.0")
                    .contains(
                        "outbox_oldest_pending_age_seconds{mode=\"polling\",relay=\"orders\"}")
                    .contains("outbox_publish_ack_seconds_count{mode=\"polling\",relay=\"orders\"}")
                    .contains("outbox_relay_lag_seconds{mode=\"polling\",relay=\"orders\"}"));
    // Every meter of the shared binding, under the names the starter registers too.
    String scrape = get(daemon, "/metrics");
    for (RelayMeter meter : RelayMeter.values()) {
      assertThat(scrape)
          .as(meter.prometheusName())
          .containsPattern(
              "(?m)^"
                  + meter.prometheusName()
                  + "\\{[^}]*mode=\"polling\"[^}]*relay=\"orders\"[^}]*\\} ");
    }

    DaemonProcess.Result list =
        cli(env, "parked", "list", "--relay", "orders", "--config", config.toString());
    assertThat(list.exitCode()).isZero();
    assertThat(list.output())
        .contains("1 parked key(s) in relay orders")
        .contains("key=poison message=" + poisonKey.get(0).id())
        .contains("RecordTooLargeException");
    DaemonProcess.Result status = cli(env, "status", "--config", config.toString());
    assertThat(status.output())
        .contains("relay orders (polling, table outbox): pending 3,")
        .contains("parked keys 1, leases {")
        .contains("relay payments (cdc, table payments_outbox): pending 0,")
        .contains("cdc active: session ");
    // A backlog that stays (the parked key's 3 rows) is reported on one INFO line per relay.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                daemon
                    .output()
                    .contains(
                        "Relay orders - backlog: 3 pending, 0 msg/s published, oldest pending"));

    // SIGTERM: graceful stop releases every lease, so the status shows none.
    assertThat(daemon.terminate(Duration.ofSeconds(30))).isEqualTo(143);
    assertThat(daemon.output())
        .contains("Relay orders stopped")
        .contains("outbox-relay-daemon stopped");
    // No ERROR line from the stop, for the polling relay and (stopped without a backlog) the CDC
    // one.
    assertThat(errorLinesAfterShutdown(daemon.output())).isEmpty();
    assertThat(cli(env, "status", "--relay", "orders", "--config", config.toString()).output())
        .contains("relay orders (polling, table outbox): pending 3,")
        .contains("leases none")
        .doesNotContain("relay payments");

    // The operator raises the limit (an environment override) and unparks the key: it resumes in
    // order from its parked message.
    Map<String, String> raised = new HashMap<>(env);
    raised.put("OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_MAX_REQUEST_SIZE", "1048576");
    DaemonProcess second = track(DaemonProcess.run(config, raised));
    DaemonProcess.Result unpark =
        cli(
            env,
            "parked",
            "unpark",
            "--key",
            "poison",
            "--relay",
            "orders",
            "--config",
            config.toString());
    assertThat(unpark.exitCode()).isZero();
    assertThat(unpark.output()).contains("unparked poison");
    await().atMost(Duration.ofSeconds(60)).until(() -> reader.readAll(TOPIC).size() >= 23);
    assertThat(reader.readAll(TOPIC).stream().filter(m -> m.key().equals("poison")))
        .extracting(ReceivedMessage::id)
        .containsExactlyElementsOf(poisonKey.stream().map(OutboxMessage::id).toList());

    // The first record disappears from the topic's view; verify finds it and republishes it.
    ReceivedMessage first = reader.readAll(TOPIC).get(0);
    try (Admin kafkaAdmin = Admin.create(adminProps())) {
      kafkaAdmin
          .deleteRecords(Map.of(new TopicPartition(TOPIC, 0), RecordsToDelete.beforeOffset(1)))
          .all()
          .get();
    }
    String since = t0.toString();
    DaemonProcess.Result found =
        cli(env, "verify", "--since", since, "--relay", "orders", "--config", config.toString());
    assertThat(found.exitCode()).isEqualTo(1);
    assertThat(found.output())
        .contains("verify orders: 23 published row(s)")
        .contains("missing: 1 of 23")
        .contains("missing id=" + first.id() + " key=" + first.key());
    DaemonProcess.Result repaired =
        cli(
            env,
            "verify",
            "--since",
            since,
            "--republish",
            "--relay",
            "orders",
            "--config",
            config.toString());
    assertThat(repaired.exitCode()).isZero();
    assertThat(repaired.output())
        .contains("missing: 1 of 23")
        .contains("republished: 1, failed: 0");
    // The original promised key order (seq-order: key); the copy, which arrives after later
    // messages of its key, does not, so a consumer's high-water mark dedups it by id only.
    assertThat(first.headers()).containsEntry("seq-order", "key");
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(reader.readAll(TOPIC))
                    .filteredOn(m -> m.id().equals(first.id()))
                    .singleElement()
                    .satisfies(m -> assertThat(m.headers()).doesNotContainKey("seq-order")));
    DaemonProcess.Result clean =
        cli(env, "verify", "--since", since, "--relay", "orders", "--config", config.toString());
    assertThat(clean.exitCode()).isZero();
    assertThat(clean.output()).contains("missing: 0 of 23");

    // replay --follow shows the running relay publishing the replayed rows again.
    DaemonProcess.Result replay =
        cli(
            env,
            "replay",
            "--since",
            since,
            "--follow",
            "--relay",
            "orders",
            "--config",
            config.toString());
    assertThat(replay.exitCode()).as(replay.output()).isZero();
    assertThat(replay.output())
        .contains("23 message(s) set to be published again")
        .contains("replay orders: 23 of 23 published again (0 still pending)");
    reader.close();

    second.terminate(Duration.ofSeconds(30));
    for (String out :
        List.of(
            daemon.output(), second.output(), list.output(), found.output(), repaired.output())) {
      assertThat(out).doesNotContain(DB_CANARY).doesNotContain(KEY_CANARY);
    }
    assertThat(daemon.output()).contains(" DEBUG ");
  }

  @Test
  void invalidConfigurationExitsWithTheKeyAndTheValueAndNoSecret() throws Exception {
    Path config = writeConfig();
    DaemonProcess.Result r =
        cli(Map.of("OUTBOX_RELAYS_0_BATCH_SIZE", "lots"), "run", "--config", config.toString());
    assertThat(r.exitCode()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(r.output())
        .contains(
            "Invalid configuration: relays[0].batch-size must be a whole number from 1 to 10000,"
                + " but was 'lots'")
        .doesNotContain(DB_CANARY);
  }

  private static void assertReadyWithBothRelays(DaemonProcess daemon) throws Exception {
    assertThat(get(daemon, "/health/ready"))
        .startsWith(
            "200 {\"relays\":{\"orders\":{\"status\":\"UP\",\"mode\":\"polling\",\"buckets\":256},"
                + "\"payments\":{\"status\":\"UP\",\"mode\":\"cdc\",\"role\":\"streaming\","
                + "\"owner\":\"session ")
        .endsWith("},\"status\":\"UP\"}");
  }

  /** The ERROR lines a daemon logged from the moment it was asked to stop. */
  static List<String> errorLinesAfterShutdown(String output) {
    int from = output.indexOf("Shutdown requested");
    assertThat(from).as("the shutdown was logged").isNotNegative();
    return output
        .substring(from)
        .lines()
        .filter(l -> l.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ERROR .*"))
        .toList();
  }

  private Path writeConfig() throws Exception {
    Path config = dir.resolve("relay.yaml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "http:",
            "  host: 127.0.0.1",
            "  port: 0",
            "relays:",
            "  - name: orders",
            "    mode: polling",
            "    database:",
            "      url: " + pg.jdbcUrl(database),
            "      username: " + pg.user(),
            "      password: " + DB_CANARY,
            "    retention: keep:1h",
            "    batch-size: 100",
            "    poll-interval: 100ms",
            "    lease-duration: 5s",
            "    publisher:",
            "      type: kafka",
            "      settings:",
            "        bootstrap.servers: " + kafka.bootstrapServers(),
            "        max.request.size: 20000",
            "        ssl.key.password: " + KEY_CANARY,
            "  - name: payments",
            "    mode: cdc",
            "    table: payments_outbox",
            "    create-schema: true",
            "    database:",
            "      url: " + pg.jdbcUrl(database),
            "      username: " + pg.user(),
            "      password: " + DB_CANARY,
            "    publisher:",
            "      type: kafka",
            "      settings:",
            "        bootstrap.servers: " + kafka.bootstrapServers(),
            ""));
    return config;
  }

  private DaemonProcess track(DaemonProcess d) {
    started.add(d);
    return d;
  }

  @org.junit.jupiter.api.AfterEach
  void stopDaemons() {
    started.forEach(DaemonProcess::close);
  }

  private static DaemonProcess.Result cli(Map<String, String> env, String... args) {
    return DaemonProcess.exec(List.of(args), env, CLI);
  }

  private static String get(DaemonProcess d, String path) throws Exception {
    return d.get(path);
  }

  private static OutboxMessage message(String key, String payload) {
    return OutboxMessage.builder()
        .aggregateType("order")
        .aggregateId(key)
        .type("OrderPlaced")
        .payload(payload)
        .build();
  }

  private static void save(List<OutboxMessage> messages) throws Exception {
    try (Connection c = app.getConnection()) {
      c.setAutoCommit(false);
      Outbox.builder().build().saveAll(c, messages);
      c.commit();
    }
  }

  private static Properties adminProps() {
    Properties p = new Properties();
    p.put("bootstrap.servers", kafka.bootstrapServers());
    return p;
  }
}
