package dev.outboxrelay.daemon.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard and the alert rules against the real thing: the daemon jar runs a polling relay and
 * a CDC relay on a real PostgreSQL and Kafka, relays a message each, and every metric, label and
 * literal label value used by a dashboard query or an alert rule must be on its {@code /metrics}. A
 * meter renamed in code fails here.
 */
class DashboardMetricsIT {

  @TempDir Path dir;

  @Test
  void everyMetricAndLabelOfTheDashboardAndTheRulesIsOnTheDaemonsMetrics() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = pg.createDatabase();
    // Its own topic: the ITs share the broker, and DaemonProcessIT reads outbox.event.order whole.
    kafka.createTopic("outbox.event.dashboard", 1);
    try (HikariDataSource app = pg.dataSource(database, 2)) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      try (DaemonProcess daemon = DaemonProcess.run(config(pg, database, kafka), Map.of())) {
        save(app, "outbox");
        save(app, "payments_outbox");
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(
                () ->
                    assertThat(get(daemon, "/metrics"))
                        .contains("outbox_published_total{mode=\"polling\",relay=\"orders\"} 1.0")
                        .contains("outbox_published_total{mode=\"cdc\",relay=\"billing\"} 1.0")
                        .contains("outbox_relay_ready{mode=\"cdc\",relay=\"billing\"} 1.0")
                        .contains(
                            "outbox_relay_phase{mode=\"cdc\",phase=\"active\",relay=\"billing\"}"
                                + " 1.0")
                        .contains("outbox_relay_ready{mode=\"polling\",relay=\"orders\"} 1.0"));
        Scrape scrape = Scrape.parse(get(daemon, "/metrics"));
        assertThat(MetricCheck.problems(MonitoringFiles.dashboardQueries(), scrape))
            .as("dashboard queries missing from the daemon's /metrics")
            .isEmpty();
        assertThat(MetricCheck.problems(MonitoringFiles.ruleQueries(), scrape))
            .as("alert rules missing from the daemon's /metrics")
            .isEmpty();
        assertThat(scrape.labels("outbox_publish_ack_seconds").get("quantile"))
            .contains("0.5", "0.99");
      }
    }
  }

  private Path config(PostgresServer pg, String database, KafkaServer kafka) throws Exception {
    Path config = dir.resolve("relay.yaml");
    String db =
        "    database: {url: '"
            + pg.jdbcUrl(database)
            + "', username: "
            + pg.user()
            + ", password: unused-with-trust}";
    String publisher =
        "    publisher: {type: kafka, settings: {bootstrap.servers: '"
            + kafka.bootstrapServers()
            + "'}}";
    Files.writeString(
        config,
        String.join(
            "\n",
            "http: {host: 127.0.0.1, port: 0}",
            "relays:",
            "  - name: orders",
            "    mode: polling",
            "    poll-interval: 100ms",
            // The reconcile meters exist only where the loop runs; the rules use them.
            "    retention: keep:1h",
            "    reconcile: {enabled: true, interval: 1s, window: 1m, lag: 1s}",
            db,
            publisher,
            // Not "payments" (DaemonProcessIT's): replication slots are cluster-wide and named
            // after the relay, and the ITs share one PostgreSQL server.
            "  - name: billing",
            "    mode: cdc",
            "    table: payments_outbox",
            "    create-schema: true",
            db,
            publisher,
            ""));
    return config;
  }

  private static void save(HikariDataSource app, String table) throws Exception {
    try (Connection c = app.getConnection()) {
      c.setAutoCommit(false);
      Outbox.builder()
          .table(OutboxTable.builder().name(table).build())
          .build()
          .save(
              c,
              OutboxMessage.builder()
                  .aggregateType("dashboard")
                  .aggregateId("o-" + table)
                  .type("OrderPlaced")
                  .payload("{}")
                  .build());
      c.commit();
    }
  }

  private static String get(DaemonProcess d, String path) throws Exception {
    String r = d.get(path);
    assertThat(r).as(path).startsWith("200 ");
    return r.substring("200 ".length());
  }
}
