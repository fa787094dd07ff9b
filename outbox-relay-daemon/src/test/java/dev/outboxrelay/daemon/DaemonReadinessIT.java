package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.writer.OutboxSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readiness follows the broker: with its own Kafka stopped, a running polling relay turns DOWN with
 * the reason and stays DOWN (no flap UP between failed rounds), its publish failures count in
 * {@code outbox_errors_total{kind="publish"}}, and it turns UP again and relays the message when
 * the broker is back.
 */
class DaemonReadinessIT {
  private static final Pattern PUBLISH_ERRORS =
      Pattern.compile(
          "outbox_errors_total\\{kind=\"publish\",mode=\"polling\",relay=\"orders\"} ([0-9.]+)");

  @TempDir Path dir;

  @Test
  void readinessFollowsTheBrokerAndPublishFailuresAreCounted() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    String database = pg.createDatabase();
    KafkaServer kafka = KafkaServer.start(); // its own broker: this test stops it
    try (HikariDataSource app = pg.dataSource(database, 2)) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      kafka.createTopic("outbox.event.order", 1);
      Path config = dir.resolve("relay.yaml");
      Files.writeString(
          config,
          String.join(
              "\n",
              "http: {host: 127.0.0.1, port: 0}",
              "relays:",
              "  - name: orders",
              "    database: {url: '" + pg.jdbcUrl(database) + "', username: " + pg.user() + "}",
              "    poll-interval: 100ms",
              "    publish-timeout: 2s",
              "    backoff-max: 1s",
              "    publisher:",
              "      type: kafka",
              "      settings: {bootstrap.servers: '" + kafka.bootstrapServers() + "'}",
              ""));
      try (DaemonProcess daemon = DaemonProcess.run(config, Map.of())) {
        // The daemon waits briefly for the first leases before its ready line; on a loaded
        // machine they may come a moment later.
        await()
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(
                () ->
                    assertThat(get(daemon, "/health/ready"))
                        .isEqualTo(
                            "200 {\"relays\":{\"orders\":{\"status\":\"UP\",\"mode\":\"polling\","
                                + "\"buckets\":256}},\"status\":\"UP\"}"));

        kafka.stop();
        OutboxMessage m =
            OutboxMessage.builder()
                .aggregateType("order")
                .aggregateId("o-1")
                .type("OrderPlaced")
                .payload("{}")
                .build();
        DaemonScrape.save(app, m);
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () ->
                    assertThat(get(daemon, "/health/ready"))
                        .startsWith(
                            "503 {\"relays\":{\"orders\":{\"status\":\"DOWN\",\"mode\":\"polling\"")
                        .contains("\"reasons\":[\"publisher: "));
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> publishErrors(get(daemon, "/metrics")) > 0);
        // DOWN must hold, not flap: a failed round (publish-timeout 2 s, backoff-max 1 s) used to
        // report an empty acknowledgement that reset readiness to UP. Sampled over 5 s, more than
        // one round, every sample must be DOWN.
        for (int i = 0; i < 10; i++) {
          assertThat(get(daemon, "/health/ready")).as("sample %d", i).startsWith("503 ");
          Thread.sleep(500); // a sampling interval, not a wait for an outcome
        }

        kafka.restart();
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(() -> assertThat(get(daemon, "/health/ready")).startsWith("200 "));
        try (KafkaTopicReader reader = new KafkaTopicReader(kafka.bootstrapServers())) {
          await()
              .atMost(Duration.ofSeconds(60))
              // At least once: a send buffered by the producer during the outage may arrive too.
              .until(
                  () ->
                      reader.readAll("outbox.event.order").stream()
                          .anyMatch(r -> r.id().equals(m.id())));
        }
        assertThat(daemon.terminate(Duration.ofSeconds(30))).isEqualTo(143);
        assertThat(daemon.output()).contains("outbox-relay-daemon stopped");
        assertThat(DaemonProcessIT.errorLinesAfterShutdown(daemon.output())).isEmpty();
      }
    } finally {
      kafka.stop();
    }
  }

  private static double publishErrors(String metrics) {
    Matcher m = PUBLISH_ERRORS.matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  private static String get(DaemonProcess d, String path) throws Exception {
    return d.get(path);
  }
}
