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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --id}, {@code --key} and {@code --since} through the daemon's CLI against a running
 * daemon on a real PostgreSQL and Kafka: each selection, and only it, is on the topic again with
 * the same ids, per key in order; an unknown or discarded id, a key that is not parked ({@code
 * parked discard}) and a relay that deletes published rows are refused with their exit codes.
 */
class ReplayCliIT {
  private static final String TOPIC = "outbox.event.replaycli";
  private static final Duration CLI = Duration.ofSeconds(90);

  @TempDir Path dir;
  private Path config;
  private KafkaTopicReader reader;
  private HikariDataSource appDataSource;

  @Test
  void eachReplaySelectionIsPublishedAgainAndOnlyIt() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = pg.createDatabase();
    kafka.createTopic(TOPIC, 1);
    config = dir.resolve("relay.yaml");
    Files.writeString(config, config(pg, database, kafka));
    try (HikariDataSource app = pg.dataSource(database, 2)) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      try (DaemonProcess daemon = DaemonProcess.run(config, Map.of());
          KafkaTopicReader r = new KafkaTopicReader(kafka.bootstrapServers())) {
        reader = r;
        appDataSource = app;
        replays(app);
      }
    }
  }

  private void replays(HikariDataSource app) throws Exception {
    List<OutboxMessage> k1 = List.of(message("k1", 1), message("k1", 2), message("k1", 3));
    List<OutboxMessage> k2 = List.of(message("k2", 4), message("k2", 5));
    OutboxMessage poison =
        OutboxMessage.builder()
            .aggregateType("replaycli")
            .aggregateId("k3")
            .type("Big")
            .payload(new byte[50_000])
            .build();
    save(app, k1);
    save(app, k2);
    save(app, List.of(poison));
    OutboxAdmin admin = OutboxAdmin.of(app, OutboxTable.defaults());
    await().atMost(Duration.ofSeconds(60)).until(() -> admin.parked().size() == 1);
    List<UUID> expected = new ArrayList<>(ids(k1));
    expected.addAll(ids(k2));
    awaitTopic(expected);

    expect(0, "1 message(s) set to be published again", "replay", "--id", "" + k1.get(1).id());
    expected.add(k1.get(1).id());
    awaitTopic(expected);

    expect(
        0,
        "replay replays: 3 of 3 published again (0 still pending)",
        "replay",
        "--key",
        "k1",
        "--follow");
    expected.addAll(ids(k1));
    awaitTopic(expected);

    // created_at is the database's clock: k2's rows are the only ones created since its first.
    expect(0, "2 message(s) set to be published again", "replay", "--since", createdAt(app, k2));
    expected.addAll(ids(k2));
    awaitTopic(expected);

    expect(1, "0 message(s) set to be published again", "replay", "--id", "" + UUID.randomUUID());
    expect(1, "not parked: k1", "parked", "discard", "--key", "k1");
    expect(
        0,
        "discarded the parked message of k3 (recorded, by bob)",
        "parked",
        "discard",
        "--key",
        "k3",
        "--by",
        "bob");
    expect(1, "0 message(s) set to be published again", "replay", "--id", "" + poison.id());
    DaemonProcess.Result deleting =
        DaemonProcess.exec(
            List.of("replay", "--key", "k1", "--config", config.toString()),
            Map.of("OUTBOX_RELAYS_0_RETENTION", "delete"),
            CLI);
    assertThat(deleting.exitCode()).as(deleting.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(deleting.output())
        .contains("Invalid configuration: relays[0].retention must be keep:<duration> to replay");

    assertThat(admin.parked()).isEmpty();
    assertThat(admin.discarded())
        .singleElement()
        .satisfies(d -> assertThat(d.messageId()).isEqualTo(poison.id()));
    await().atMost(Duration.ofSeconds(30)).until(() -> admin.pendingCount() == 0);
    // Nothing else went out: not the refused replays, not the discarded message.
    assertThat(reader.readAll(TOPIC))
        .extracting(ReceivedMessage::id)
        .containsExactlyElementsOf(expected);
  }

  /**
   * The topic holds exactly {@code expected}, and every row but the parked k3 is marked published:
   * a relay marks a live stream's rows up to 50 ms after their acknowledgements, and a replay
   * resets published rows only.
   */
  private void awaitTopic(List<UUID> expected) {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> reader.readAll(TOPIC).size() >= expected.size());
    assertThat(reader.readAll(TOPIC))
        .extracting(ReceivedMessage::id)
        .containsExactlyElementsOf(expected);
    await().atMost(Duration.ofSeconds(30)).until(() -> unmarkedBesidesK3() == 0);
  }

  private long unmarkedBesidesK3() throws Exception {
    try (Connection c = appDataSource.getConnection();
        PreparedStatement st =
            c.prepareStatement(
                "SELECT COUNT(*) FROM outbox WHERE published_at IS NULL AND aggregateid <> 'k3'");
        ResultSet rs = st.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private void expect(int exit, String line, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--config", config.toString()));
    DaemonProcess.Result r = DaemonProcess.exec(all, Map.of(), CLI);
    assertThat(r.exitCode()).as(String.join(" ", args) + ": " + r.output()).isEqualTo(exit);
    assertThat(r.output()).contains(line);
  }

  private static String createdAt(HikariDataSource app, List<OutboxMessage> rows) throws Exception {
    try (Connection c = app.getConnection();
        PreparedStatement st = c.prepareStatement("SELECT created_at FROM outbox WHERE id = ?")) {
      st.setObject(1, rows.get(0).id());
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        Instant at = rs.getTimestamp(1).toInstant();
        return at.toString();
      }
    }
  }

  private static void save(HikariDataSource app, List<OutboxMessage> messages) throws Exception {
    try (Connection c = app.getConnection()) {
      c.setAutoCommit(false);
      Outbox.builder().build().saveAll(c, messages);
      c.commit();
    }
  }

  private static List<UUID> ids(List<OutboxMessage> messages) {
    return messages.stream().map(OutboxMessage::id).toList();
  }

  private static OutboxMessage message(String key, int n) {
    return OutboxMessage.builder()
        .aggregateType("replaycli")
        .aggregateId(key)
        .type("Replayed")
        .payload("{\"n\":" + n + "}")
        .build();
  }

  private static String config(PostgresServer pg, String database, KafkaServer kafka) {
    return String.join(
        "\n",
        "http:",
        "  host: 127.0.0.1",
        "  port: 0",
        "relays:",
        "  - name: replays",
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
