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
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reconciliation loop inside the daemon jar, as a process on a real PostgreSQL and Kafka: a row
 * committed already marked published (as if its broker write had been lost) is logged at WARN with
 * id, key and topic (never the payload), counted on {@code /metrics} and republished, while the
 * relay publishes an ordinary message that the loop checks and finds.
 */
class DaemonReconcileIT {
  private final String prefix = "reconcile-loop-" + UUID.randomUUID().toString().substring(0, 8);
  private final String topic = prefix + ".order";

  @TempDir Path dir;

  @Test
  void theLoopReportsCountsAndRepublishesALostMessageOnTheMetricsEndpoint() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = pg.createDatabase();
    kafka.createTopic(topic, 1);
    try (HikariDataSource app = pg.dataSource(database, 2);
        KafkaTopicReader reader = new KafkaTopicReader(kafka.bootstrapServers())) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      try (DaemonProcess daemon = DaemonProcess.run(config(pg, database, kafka), Map.of())) {
        OutboxMessage ordinary = message("ordinary", "{\"secret-payload\":1}");
        OutboxMessage lost = message("lost", "{\"secret-payload\":2}");
        save(app, ordinary, false);
        save(app, lost, true);
        String tags = "{mode=\"polling\",relay=\"reconciled\"}";
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () ->
                    assertThat(DaemonScrape.metrics(daemon))
                        .contains("outbox_reconcile_missing_total" + tags + " 1.0")
                        .contains("outbox_reconcile_republished_total" + tags + " 1.0")
                        .contains("outbox_reconcile_last_missing" + tags + " 0.0"));
        assertThat(reader.readAll(topic))
            .extracting(ReceivedMessage::id)
            .containsExactlyInAnyOrder(ordinary.id(), lost.id());
        String metrics = DaemonScrape.metrics(daemon);
        assertThat(DaemonScrape.value(metrics, "outbox_reconcile_checked_total" + tags))
            .as("the lost row in two runs (missing, then found), the ordinary one at least once")
            .isGreaterThanOrEqualTo(3);
        assertThat(
                DaemonScrape.value(
                    metrics, "outbox_reconcile_last_success_timestamp_seconds" + tags))
            .isGreaterThan(1.7e9);
        assertThat(metrics).contains("outbox_reconcile_failures_total" + tags + " 0.0");
        assertThat(metrics).contains("outbox_reconcile_run_seconds_count" + tags);
        assertThat(daemon.output())
            .contains(
                "WARN",
                "Relay reconciled - reconcile: message missing on the broker: id="
                    + lost.id()
                    + " key=reconcile-lost topic="
                    + topic)
            .doesNotContain("secret-payload")
            .doesNotContain("id=" + ordinary.id());
      }
    }
  }

  private Path config(PostgresServer pg, String database, KafkaServer kafka) throws Exception {
    Path config = dir.resolve("relay.yaml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "http: {host: 127.0.0.1, port: 0}",
            "relays:",
            "  - name: reconciled",
            "    poll-interval: 100ms",
            "    retention: keep:1h",
            "    reconcile: {enabled: true, interval: 1s, window: 1m, lag: 1s, republish: true}",
            "    database: {url: '" + pg.jdbcUrl(database) + "', username: " + pg.user() + "}",
            "    publisher: {type: kafka, settings: {bootstrap.servers: '"
                + kafka.bootstrapServers()
                + "', topic-template: '"
                + prefix
                + ".${aggregatetype}'}}",
            ""));
    return config;
  }

  private static OutboxMessage message(String key, String payload) {
    return DaemonScrape.order("reconcile-" + key, payload);
  }

  /** {@code lost}: marked published in its own transaction, so no relay ever claims it. */
  private static void save(HikariDataSource app, OutboxMessage m, boolean lost) throws Exception {
    try (Connection c = app.getConnection()) {
      c.setAutoCommit(false);
      Outbox.builder().build().save(c, m);
      if (lost) {
        try (PreparedStatement ps =
            c.prepareStatement("UPDATE outbox SET published_at = now() WHERE id = ?")) {
          ps.setObject(1, m.id());
          ps.executeUpdate();
        }
      }
      c.commit();
    }
  }
}
