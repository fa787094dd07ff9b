package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.Readme;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.Outbox;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's quick start as a user follows it: its {@code relay.yaml} as written, pointed at a
 * fresh PostgreSQL database without any outbox table and at Kafka, the password in the environment,
 * the daemon jar this build packaged run as a process. It prints the ready line the README shows,
 * creates its tables, and relays a row the application saves to {@code outbox.event.<aggregate
 * type>}, a topic nobody created.
 */
class DaemonQuickStartIT {
  @TempDir Path dir;

  @Test
  void theReadmesThreeStepsRelayAnEventFromAFreshDatabase() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = pg.createDatabase();
    String yaml =
        quickStartYaml()
            .replace("jdbc:postgresql://127.0.0.1:5432/app", pg.jdbcUrl(database))
            .replace("username: app", "username: " + pg.user())
            .replace("127.0.0.1:9092", kafka.bootstrapServers());
    Path config = dir.resolve("relay.yaml");
    Files.writeString(config, yaml);
    // The README's port 8080 may be taken on a test machine: the environment picks a free one,
    // as any key can be set there.
    Map<String, String> env =
        Map.of("OUTBOX_RELAYS_0_DATABASE_PASSWORD", pg.password(), "OUTBOX_HTTP_PORT", "0");
    try (DaemonProcess daemon = DaemonProcess.run(config, env);
        HikariDataSource app = pg.dataSource(database, 2);
        KafkaTopicReader topic = new KafkaTopicReader(kafka.bootstrapServers())) {
      assertThat(daemon.output()).contains("outbox-relay-daemon ready http=127.0.0.1:");
      String aggregateType = "quickstart" + database.replaceAll("[^A-Za-z0-9]", "");
      try (Connection c = app.getConnection()) {
        c.setAutoCommit(false);
        Outbox.builder()
            .build()
            .save(
                c,
                OutboxMessage.builder()
                    .aggregateType(aggregateType)
                    .aggregateId("order-1")
                    .type("OrderPlaced")
                    .payload("{}".getBytes(StandardCharsets.UTF_8))
                    .build());
        c.commit();
      }
      // Read the topic only once the relay deleted the published row: a reader asking for an
      // unknown topic would have the broker create it.
      await().atMost(Duration.ofSeconds(60)).until(() -> pendingRows(app) == 0);
      assertThat(topic.readAll("outbox.event." + aggregateType))
          .extracting(ReceivedMessage::key)
          .containsExactly("order-1");
    }
  }

  private static long pendingRows(HikariDataSource app) throws Exception {
    try (Connection c = app.getConnection();
        var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM outbox")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The first YAML block of the README's quick start, with the parts the test points elsewhere. */
  private static String quickStartYaml() throws Exception {
    // Indented under its list item in the README; YAML needs it at the margin.
    String yaml = Readme.codeBlock(Path.of("README.md"), "## Quick start", "yaml").stripIndent();
    assertThat(yaml)
        .as("the README's relay.yaml, as the test rewrites it")
        .contains("jdbc:postgresql://127.0.0.1:5432/app", "username: app", "127.0.0.1:9092")
        .contains("create-schema: true")
        .doesNotContain("password");
    return yaml;
  }
}
