package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.testing.RecordingPublisherJar;
import dev.outboxrelay.writer.OutboxSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A third party's publisher, in its own jar built by the test against outbox-core only, added to
 * the daemon the way its README says ({@code java -cp daemon-all.jar:plugin.jar <main> run}) and
 * named in the config: the daemon finds it by {@code ServiceLoader}, relays through it per key in
 * order, and marks the acknowledged rows done. Without the jar the same config is refused. The
 * jar's broker reader serves {@code verify} and the reconciliation loop as Kafka's and RocketMQ's
 * do: a message taken out of its record is missing, and the loop sends it again.
 */
class PluginPublisherIT {
  private static final Duration CLI = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void aPublisherJarOnTheClassPathIsFoundByItsNameAndRelaysInKeyOrder() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    String database = pg.createDatabase();
    Path plugin = RecordingPublisherJar.build(dir.resolve("plugin"));
    Path file = dir.resolve("recorded.txt");
    Path config = dir.resolve("relay.yaml");
    Files.writeString(config, config(pg, database, file, ""));

    DaemonProcess.Result without =
        DaemonProcess.exec(List.of("run", "--config", "" + config), Map.of(), CLI);
    assertThat(without.exitCode()).as(without.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(without.output())
        .contains("relays[0].publisher.type must name a publisher on the classpath, one of [")
        .contains("but was 'recording'");

    try (HikariDataSource app = pg.dataSource(database, 2);
        DaemonProcess daemon = DaemonProcess.run(config, Map.of(), List.of(plugin))) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      List<OutboxMessage> sent = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        OutboxMessage m = message("plugin-" + (i % 3), i);
        sent.add(m);
        DaemonScrape.save(app, m);
      }
      OutboxAdmin admin = OutboxAdmin.of(app, OutboxTable.defaults());
      await().atMost(Duration.ofSeconds(60)).until(() -> admin.pendingCount() == 0);
      for (int k = 0; k < 3; k++) {
        String key = "plugin-" + k;
        assertThat(RecordingPublisherJar.recorded(file, key))
            .as("recorded order of " + key)
            .containsExactlyElementsOf(
                sent.stream()
                    .filter(m -> m.aggregateId().equals(key))
                    .map(OutboxMessage::id)
                    .toList());
      }
      assertThat(daemon.isAlive()).isTrue();
    }
  }

  @Test
  void verifyAndTheReconcileLoopReadTheBrokerThroughThePluginsReader() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    String database = pg.createDatabase();
    Path plugin = RecordingPublisherJar.build(dir.resolve("plugin"));
    Path file = dir.resolve("recorded.txt");
    Path relaying = dir.resolve("relay.yaml");
    Files.writeString(relaying, config(pg, database, file, "    retention: keep:1h"));
    Path reconciling = dir.resolve("reconcile.yaml");
    Files.writeString(
        reconciling,
        config(
            pg,
            database,
            file,
            "    retention: keep:1h\n"
                + "    reconcile: {enabled: true, interval: 1s, window: 10m, lag: 1s,"
                + " republish: true}"));
    Instant since = Instant.now().minus(Duration.ofMinutes(1));
    List<OutboxMessage> sent =
        List.of(message("kept-0", 0), message("lost", 1), message("kept-2", 2));
    OutboxMessage lost = sent.get(1);
    try (HikariDataSource app = pg.dataSource(database, 2)) {
      try (DaemonProcess daemon = DaemonProcess.run(relaying, Map.of(), List.of(plugin))) {
        try (Connection c = app.getConnection()) {
          OutboxSchema.createIfMissing(c, OutboxTable.defaults());
        }
        for (OutboxMessage m : sent) {
          DaemonScrape.save(app, m);
        }
        OutboxAdmin admin = OutboxAdmin.of(app, OutboxTable.defaults());
        await().atMost(Duration.ofSeconds(60)).until(() -> admin.pendingCount() == 0);
      }

      DaemonProcess.Result present = verify(relaying, plugin, since);
      assertThat(present.exitCode()).as(present.output()).isZero();
      assertThat(present.output()).contains("missing: 0 of 3");

      RecordingPublisherJar.lose(file, lost.id());
      DaemonProcess.Result missing = verify(relaying, plugin, since);
      assertThat(missing.exitCode()).as(missing.output()).isEqualTo(1);
      assertThat(missing.output())
          .contains("missing: 1 of 3")
          .contains("missing id=" + lost.id() + " key=lost type=Recorded");

      try (DaemonProcess daemon = DaemonProcess.run(reconciling, Map.of(), List.of(plugin))) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> RecordingPublisherJar.recorded(file, "lost").contains(lost.id()));
        assertThat(daemon.output())
            .contains("reconcile: message missing on the broker: id=" + lost.id() + " key=lost");
      }
    }
  }

  private static DaemonProcess.Result verify(Path config, Path plugin, Instant since) {
    return DaemonProcess.exec(
        List.of("verify", "--config", "" + config, "--since", "" + since),
        Map.of(),
        List.of(plugin),
        CLI);
  }

  private static OutboxMessage message(String key, int n) {
    return OutboxMessage.builder()
        .aggregateType("plugin")
        .aggregateId(key)
        .type("Recorded")
        .payload("{\"n\":" + n + "}")
        .build();
  }

  private static String config(PostgresServer pg, String database, Path file, String extra) {
    return String.join(
        "\n",
        "http:",
        "  host: 127.0.0.1",
        "  port: 0",
        "relays:",
        "  - name: plugin-relay",
        "    create-schema: true",
        "    database:",
        "      url: " + pg.jdbcUrl(database),
        "      username: " + pg.user(),
        "      password: " + pg.password(),
        "    poll-interval: 100ms",
        extra,
        "    publisher:",
        "      type: " + RecordingPublisherJar.TYPE,
        "      settings:",
        "        " + RecordingPublisherJar.FILE_SETTING + ": " + file,
        "");
  }
}
