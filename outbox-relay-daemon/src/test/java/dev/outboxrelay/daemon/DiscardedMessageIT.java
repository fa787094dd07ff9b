package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A discarded message is a recorded decision, through the daemon's CLI against a real PostgreSQL
 * and Kafka: {@code parked discard} records it, {@code parked discarded} lists it, {@code verify}
 * reports it as discarded (exit 0, nothing missing), {@code verify --republish} and replays never
 * send it.
 */
class DiscardedMessageIT {
  private static final String TOPIC = "outbox.event.refund";
  private static final Duration CLI = Duration.ofSeconds(90);

  @TempDir Path dir;
  private Path config;

  @Test
  void aDiscardedMessageIsReportedAsDiscardedAndNeverSent() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = pg.createDatabase();
    kafka.createTopic(TOPIC, 1);
    config = dir.resolve("relay.yaml");
    Files.writeString(config, config(pg, database, kafka));
    Instant t0 = Instant.now().minusSeconds(5);
    try (HikariDataSource app = pg.dataSource(database, 2);
        KafkaTopicReader reader = new KafkaTopicReader(kafka.bootstrapServers())) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      DaemonProcess daemon = DaemonProcess.run(config, Map.of());
      try {
        run(app, reader, t0);
      } finally {
        daemon.close();
      }
    }
  }

  private void run(HikariDataSource app, KafkaTopicReader reader, Instant t0) throws Exception {
    OutboxMessage before = message("{\"n\":1}".getBytes());
    OutboxMessage tooLarge = message(new byte[50_000]);
    OutboxMessage after = message("{\"n\":3}".getBytes());
    try (Connection c = app.getConnection()) {
      c.setAutoCommit(false);
      Outbox.builder().build().saveAll(c, List.of(before, tooLarge, after));
      c.commit();
    }
    OutboxAdmin admin = OutboxAdmin.of(app, OutboxTable.defaults());
    await().atMost(Duration.ofSeconds(60)).until(() -> admin.parked().size() == 1);

    DaemonProcess.Result discard = cli("parked", "discard", "--key", "refund-1", "--by", "alice");
    assertThat(discard.exitCode()).as(discard.output()).isZero();
    assertThat(discard.output()).contains("discarded the parked message of refund-1");
    await().atMost(Duration.ofSeconds(60)).until(() -> reader.readAll(TOPIC).size() >= 2);
    assertThat(reader.readAll(TOPIC))
        .extracting(ReceivedMessage::id)
        .containsExactly(before.id(), after.id());

    assertThat(cli("parked", "discarded").output())
        .contains("1 discarded message(s) in relay refunds")
        .contains("message=" + tooLarge.id() + " key=refund-1")
        .contains("by=alice")
        .contains("RecordTooLargeException");
    assertThat(cli("parked", "list").output())
        .contains("0 parked key(s)")
        .contains("1 discarded message(s)");

    DaemonProcess.Result verify = cli("verify", "--since", t0.toString());
    assertThat(verify.exitCode()).as(verify.output()).isZero();
    assertThat(verify.output())
        .contains("verify refunds: 3 published row(s)")
        .contains("discarded: 1")
        .contains("discarded id=" + tooLarge.id() + " key=refund-1")
        .contains("missing: 0 of 2");
    DaemonProcess.Result republish = cli("verify", "--since", t0.toString(), "--republish");
    assertThat(republish.exitCode()).as(republish.output()).isZero();
    assertThat(republish.output()).contains("missing: 0 of 2").doesNotContain("republished");

    // Replays skip it too: the key's kept messages go out again, the discarded one does not.
    assertThat(admin.replay(tooLarge.id())).isFalse();
    assertThat(admin.replayKey("refund-1")).isEqualTo(2);
    await().atMost(Duration.ofSeconds(60)).until(() -> reader.readAll(TOPIC).size() >= 4);
    assertThat(reader.readAll(TOPIC))
        .extracting(ReceivedMessage::id)
        .containsExactly(before.id(), after.id(), before.id(), after.id());
  }

  private DaemonProcess.Result cli(String... args) {
    List<String> all = new java.util.ArrayList<>(List.of(args));
    all.addAll(List.of("--config", config.toString()));
    return DaemonProcess.exec(all, Map.of(), CLI);
  }

  private static OutboxMessage message(byte[] payload) {
    return OutboxMessage.builder()
        .aggregateType("refund")
        .aggregateId("refund-1")
        .type("RefundIssued")
        .payload(payload)
        .build();
  }

  private static String config(PostgresServer pg, String database, KafkaServer kafka) {
    return String.join(
        "\n",
        "http:",
        "  host: 127.0.0.1",
        "  port: 0",
        "relays:",
        "  - name: refunds",
        "    database:",
        "      url: " + pg.jdbcUrl(database),
        "      username: " + pg.user(),
        "      password: " + pg.password(),
        "    retention: keep:1h",
        "    poll-interval: 100ms",
        "    publisher:",
        "      type: kafka",
        "      settings:",
        "        bootstrap.servers: " + kafka.bootstrapServers(),
        "        max.request.size: 20000",
        "");
  }
}
