package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.writer.OutboxSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A polling instance that owns no key bucket is a healthy standby, ready like a CDC standby: the
 * jar as two processes on one table. The second joins while the first holds all 256 buckets; with
 * {@code lease-duration: 60s} they rebalance every 20 s, so it owns none for that long.
 */
class DaemonStandbyIT {
  @TempDir Path dir;

  @Test
  void aPollingInstanceOwningNoBucketsIsReadyAndSaysItStandsBy() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = pg.createDatabase();
    try (HikariDataSource app = pg.dataSource(database, 1)) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
    }
    Path config = dir.resolve("relay.yaml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "http: {host: 127.0.0.1, port: 0}",
            "relays:",
            "  - name: orders",
            "    database: {url: '" + pg.jdbcUrl(database) + "', username: " + pg.user() + "}",
            "    lease-duration: 60s",
            "    publisher:",
            "      type: kafka",
            "      settings: {bootstrap.servers: '" + kafka.bootstrapServers() + "'}",
            ""));
    try (DaemonProcess first = DaemonProcess.run(config, Map.of())) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> first.get("/health/ready").contains("\"buckets\":256"));
      try (DaemonProcess second = DaemonProcess.run(config, Map.of())) {
        assertThat(second.get("/health/ready"))
            .isEqualTo(
                "200 {\"relays\":{\"orders\":{\"status\":\"UP\",\"mode\":\"polling\","
                    + "\"buckets\":0,\"role\":\"standby\"}},\"status\":\"UP\"}");
        // The phase and ready gauges are sampled every 2 s.
        await()
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(
                () ->
                    assertThat(second.get("/metrics"))
                        .contains(
                            "outbox_relay_phase{mode=\"polling\",phase=\"standby\",relay=\"orders\"}"
                                + " 1.0")
                        .contains("outbox_relay_ready{mode=\"polling\",relay=\"orders\"} 1.0")
                        .contains("outbox_owned_buckets{mode=\"polling\",relay=\"orders\"} 0.0"));
        assertThat(first.get("/health/ready")).startsWith("200 ");
      }
    }
  }
}
