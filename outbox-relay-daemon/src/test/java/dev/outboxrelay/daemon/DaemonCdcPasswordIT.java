package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.writer.Outbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CDC relay configured without {@code database.password}, run as users run it: where the database
 * lets the user in without one (PostgreSQL trust authentication, a MariaDB account without a
 * password) the relay streams and stays ready; where the database wants one, the start fails before
 * the ready line, naming the relay and the key; so does an engine that fails as it starts.
 */
class DaemonCdcPasswordIT {
  private static final Duration CLI = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void withoutAPasswordTheCdcRelayStreamsWherePostgresTrustsTheUser() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    streamsWithoutAPassword(pg, pg.user(), "outbox.event.pgtrust");
  }

  @Test
  void withoutAPasswordTheCdcRelayStreamsForAMariaDbAccountWithoutOne() throws Exception {
    // The test server's root has no password over TCP.
    streamsWithoutAPassword(MariaDbServer.shared(), "root", "outbox.event.mdbnopw");
  }

  @Test
  void aDatabaseThatWantsAPasswordStopsTheStartNamingTheKey() throws Exception {
    MariaDbServer db = MariaDbServer.shared(); // its user outbox has a password
    String database = db.createDatabase();
    Path config = config(db.jdbcUrl(database), db.user(), "outbox.event.refused");
    DaemonProcess.Result r =
        DaemonProcess.exec(List.of("run", "--config", config.toString()), Map.of(), CLI);
    assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_AUTHENTICATION);
    assertThat(r.output())
        .contains("relays[0].database.password is not set")
        .contains("refused user 'outbox'")
        .doesNotContain("outbox-relay-daemon ready")
        .doesNotContain("Relay passwordless started");
  }

  @Test
  void anEngineThatFailsAtStartStopsTheDaemonBeforeTheReadyLine() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    String database = pg.createDatabase();
    Path config = config(pg.jdbcUrl(database), pg.user(), "outbox.event.badplugin");
    DaemonProcess.Result r =
        DaemonProcess.exec(
            List.of("run", "--config", config.toString()),
            Map.of(
                "OUTBOX_RELAYS_0_DATABASE_PASSWORD", "canary-cdc-4411",
                "OUTBOX_RELAYS_0_DEBEZIUM_PLUGIN_NAME", "no_such_plugin"),
            CLI);
    assertThat(r.exitCode()).as(r.output()).isEqualTo(1);
    assertThat(r.output())
        .contains("passwordless - the CDC engine failed at start: ")
        .doesNotContain("outbox-relay-daemon ready")
        .doesNotContain("streaming outbox")
        .doesNotContain("canary-cdc-4411");
  }

  private void streamsWithoutAPassword(DatabaseServer db, String user, String topic)
      throws Exception {
    String database = db.createDatabase();
    KafkaServer kafka = KafkaServer.shared();
    kafka.createTopic(topic, 1);
    Path config = config(db.jdbcUrl(database), user, topic);
    try (DaemonProcess daemon = DaemonProcess.run(config, Map.of());
        HikariDataSource app = db.dataSource(database, 1);
        KafkaTopicReader reader = new KafkaTopicReader(kafka.bootstrapServers())) {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(get(daemon, "/health/ready"))
                      .startsWith("200 ")
                      .contains("\"role\":\"streaming\""));
      OutboxMessage m =
          OutboxMessage.builder()
              .aggregateType(topic.substring("outbox.event.".length()))
              .aggregateId("k-1")
              .type("Paid")
              .payload("{}")
              .build();
      try (Connection c = app.getConnection()) {
        c.setAutoCommit(false);
        Outbox.builder().build().save(c, m);
        c.commit();
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> reader.readAll(topic).stream().anyMatch(r -> r.id().equals(m.id())));
      // Still ready, and the engine never failed behind the ready line.
      assertThat(get(daemon, "/health/ready")).startsWith("200 ");
      assertThat(daemon.output()).doesNotContain("engine failed").doesNotContain(" ERROR ");
      assertThat(daemon.terminate(Duration.ofSeconds(30))).isEqualTo(143);
    }
  }

  private Path config(String url, String user, String topic) throws Exception {
    Path file = Files.createTempFile(dir, "relay", ".yaml");
    Files.writeString(
        file,
        String.join(
            "\n",
            "http: {host: 127.0.0.1, port: 0}",
            "relays:",
            // PostgreSQL's replication slots are cluster-wide and named after the relay: every IT
            // on the shared server names its CDC relay apart, or its slot is another database's.
            "  - name: passwordless",
            "    mode: cdc",
            "    create-schema: true",
            "    database:",
            "      url: '" + url + "'",
            "      username: " + user,
            "    publisher:",
            "      type: kafka",
            "      settings: {bootstrap.servers: '"
                + KafkaServer.shared().bootstrapServers()
                + "'}",
            ""));
    return file;
  }

  private static String get(DaemonProcess d, String path) throws Exception {
    return d.get(path);
  }
}
