package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.OutboxSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon jar as a process, configured the way a user switches the features on together: a
 * polling relay on PostgreSQL with NOTIFY (the writer's wake-up), a dead-letter topic, the
 * reconciliation loop and retention that keeps published rows. A message larger than the producer's
 * {@code max.request.size} is parked; its copy (payload dropped: the topic refuses it whole, too)
 * lands once on the dead-letter topic with the reason; the key's next message waits behind it while
 * another key flows; {@code parked list} shows the copy; reconciliation finds nothing missing;
 * {@code /metrics} counts the copy.
 */
class DaemonDeadLetterIT {
  private static final int MAX_REQUEST = 64 * 1024;
  private static final Duration CLI = Duration.ofSeconds(60);
  private final String prefix = "dlq-daemon-" + UUID.randomUUID().toString().substring(0, 8);
  private final String topic = prefix + ".order";
  private final String deadLetters = prefix + ".dead";

  @TempDir Path dir;

  @Test
  void aParkedMessageIsCopiedOnceToTheDeadLetterTopicAndItsKeyWaits() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = pg.createDatabase();
    kafka.createTopic(topic, 1);
    kafka.createTopic(deadLetters, 1);
    Path config = config(pg, database, kafka);
    try (HikariDataSource app = pg.dataSource(database, 2);
        KafkaTopicReader reader = new KafkaTopicReader(kafka.bootstrapServers())) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      try (DaemonProcess daemon = DaemonProcess.run(config, Map.of())) {
        OutboxMessage poison = message("poisoned", "x".repeat(2 * MAX_REQUEST));
        OutboxMessage behind = message("poisoned", "{\"n\":2}");
        OutboxMessage other = message("healthy", "{\"n\":3}");
        DaemonScrape.save(app, poison);
        DaemonScrape.save(app, behind);
        DaemonScrape.save(app, other);
        await()
            .atMost(Duration.ofSeconds(60))
            .untilAsserted(() -> assertThat(reader.readAll(deadLetters)).hasSize(1));
        ReceivedMessage copy = reader.readAll(deadLetters).get(0);
        assertThat(copy.id()).isEqualTo(poison.id());
        assertThat(copy.key()).isEqualTo("dlq-poisoned");
        assertThat(copy.headers())
            .containsEntry(MessageContract.HEADER_PAYLOAD_DROPPED, String.valueOf(2 * MAX_REQUEST))
            .containsEntry("outbox-original-topic", topic)
            .containsKey(MessageContract.HEADER_PARKED_AT);
        assertThat(copy.headers().get(MessageContract.HEADER_PARKED_REASON)).isNotBlank();
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () ->
                    assertThat(reader.readAll(topic))
                        .extracting(ReceivedMessage::id)
                        .containsExactly(other.id()));
        String tags = "{mode=\"polling\",relay=\"dead-lettered\"}";
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () ->
                    assertThat(DaemonScrape.metrics(daemon))
                        .contains("outbox_deadletter_sent_total" + tags + " 1.0")
                        .contains("outbox_reconcile_last_missing" + tags + " 0.0"));
        DaemonProcess.Result parked =
            DaemonProcess.exec(
                List.of("parked", "list", "--config", config.toString()), Map.of(), CLI);
        assertThat(parked.exitCode()).as(parked.output()).isZero();
        assertThat(parked.output())
            .contains("dlq-poisoned", poison.id().toString(), "dead_lettered=")
            .doesNotContain("dead_lettered=no");
        assertThat(DaemonScrape.metrics(daemon))
            .contains("outbox_reconcile_missing_total" + tags + " 0.0");
        assertThat(reader.readAll(deadLetters)).as("copied once").hasSize(1);
        assertThat(reader.readAll(topic))
            .extracting(ReceivedMessage::id)
            .doesNotContain(behind.id());
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
            "  - name: dead-lettered",
            "    retention: keep:1h",
            "    reconcile: {enabled: true, interval: 1s, window: 1m, lag: 1s}",
            "    database: {url: '" + pg.jdbcUrl(database) + "', username: " + pg.user() + "}",
            "    publisher:",
            "      type: kafka",
            "      dead-letter-topic: " + deadLetters,
            "      settings:",
            "        bootstrap.servers: '" + kafka.bootstrapServers() + "'",
            "        topic-template: '" + prefix + ".${aggregatetype}'",
            "        max.request.size: " + MAX_REQUEST,
            ""));
    return config;
  }

  private static OutboxMessage message(String key, String payload) {
    return DaemonScrape.order("dlq-" + key, payload);
  }
}
