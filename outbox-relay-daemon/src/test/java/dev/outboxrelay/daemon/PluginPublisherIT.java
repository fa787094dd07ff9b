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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A third party's publisher, in its own jar built by the test against outbox-core only, added to
 * the daemon the way its README says ({@code java -cp daemon-all.jar:plugin.jar <main> run}) and
 * named in the config: the daemon finds it by {@code ServiceLoader}, relays through it per key in
 * order, and marks the acknowledged rows done. Without the jar the same config is refused.
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
    Files.writeString(config, config(pg, database, file));

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

  private static OutboxMessage message(String key, int n) {
    return OutboxMessage.builder()
        .aggregateType("plugin")
        .aggregateId(key)
        .type("Recorded")
        .payload("{\"n\":" + n + "}")
        .build();
  }

  private static String config(PostgresServer pg, String database, Path file) {
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
        "    publisher:",
        "      type: " + RecordingPublisherJar.TYPE,
        "      settings:",
        "        " + RecordingPublisherJar.FILE_SETTING + ": " + file,
        "");
  }
}
