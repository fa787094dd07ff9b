package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.writer.OutboxSchema;
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
 * the ready line, naming the relay and the key; so does an engine that fails as it starts, and a
 * source user who may not write the CDC stores' tables (the daemon's side of outbox-relay-cdc's
 * "Privileges").
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

  /**
   * The set-up a DBA makes: the outbox and the CDC stores' tables created beforehand by an owner,
   * and a relay login that may stream and read the outbox but not write the offsets table. The
   * daemon exits 1 before the ready line, naming the user, the table and the grant (its password
   * never printed); granted, the same configuration starts, streams and stays ready.
   */
  @Test
  void aSourceUserWhoCannotWriteTheOffsetsStopsTheStartNamingTheGrant() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    String database = pg.createDatabase();
    String role = "relay_" + database.toLowerCase(java.util.Locale.ROOT);
    String password = "canary-grant-5120";
    try (HikariDataSource owner = pg.dataSource(database, 1);
        Connection c = owner.getConnection();
        java.sql.Statement st = c.createStatement()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      st.execute(
          "CREATE TABLE outbox_cdc_offsets (id VARCHAR(36) NOT NULL, offset_key VARCHAR(1255),"
              + " offset_val VARCHAR(1255), record_insert_ts TIMESTAMP NOT NULL,"
              + " record_insert_seq INTEGER NOT NULL, PRIMARY KEY (id))");
      st.execute(
          "CREATE TABLE outbox_cdc_published (batch bigserial PRIMARY KEY, ids bytea NOT NULL)");
      // As the README's Privileges section has the owner make it.
      st.execute("CREATE PUBLICATION grants FOR TABLE outbox WITH (publish = 'insert')");
      st.execute("CREATE ROLE " + role + " LOGIN REPLICATION PASSWORD '" + password + "'");
      st.execute("GRANT USAGE ON SCHEMA public TO " + role);
      st.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + role);
      st.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO " + role);
      st.execute("REVOKE INSERT ON outbox_cdc_offsets FROM " + role);
    }
    String topic = "outbox.event.grants";
    KafkaServer kafka = KafkaServer.shared();
    kafka.createTopic(topic, 1);
    Path config = config(pg.jdbcUrl(database), role, topic, "grants", false);
    Map<String, String> env = Map.of("OUTBOX_RELAYS_0_DATABASE_PASSWORD", password);
    DaemonProcess.Result r =
        DaemonProcess.exec(List.of("run", "--config", config.toString()), env, CLI);
    assertThat(r.exitCode()).as(r.output()).isEqualTo(1);
    assertThat(r.output())
        .contains("Failed: grants - ")
        .contains("the source user '" + role + "' cannot write \"outbox_cdc_offsets\"")
        .contains("grant it SELECT, INSERT, DELETE on \"outbox_cdc_offsets\"")
        .doesNotContain("outbox-relay-daemon ready")
        .doesNotContain(password);

    try (HikariDataSource owner = pg.dataSource(database, 1);
        Connection c = owner.getConnection();
        java.sql.Statement st = c.createStatement()) {
      st.execute("GRANT INSERT ON outbox_cdc_offsets TO " + role);
    }
    try (DaemonProcess daemon = DaemonProcess.run(config, env);
        HikariDataSource app = pg.dataSource(database, 1);
        KafkaTopicReader reader = new KafkaTopicReader(kafka.bootstrapServers())) {
      awaitStreamingAndRelayOne(daemon, app, reader, topic);
      assertThat(daemon.output()).doesNotContain(password);
      assertThat(daemon.terminate(Duration.ofSeconds(30))).isEqualTo(143);
    }
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
      awaitStreamingAndRelayOne(daemon, app, reader, topic);
      assertThat(daemon.output()).doesNotContain("engine failed").doesNotContain(" ERROR ");
      assertThat(daemon.terminate(Duration.ofSeconds(30))).isEqualTo(143);
    }
  }

  /** Ready and streaming, then one saved message reaches the topic, and the daemon stays ready. */
  private static void awaitStreamingAndRelayOne(
      DaemonProcess daemon, HikariDataSource app, KafkaTopicReader reader, String topic)
      throws Exception {
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
    DaemonScrape.save(app, m);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> reader.readAll(topic).stream().anyMatch(r -> r.id().equals(m.id())));
    // Still ready, and the engine never failed behind the ready line.
    assertThat(get(daemon, "/health/ready")).startsWith("200 ");
  }

  private Path config(String url, String user, String topic) throws Exception {
    return config(url, user, topic, "passwordless", true);
  }

  private Path config(String url, String user, String topic, String name, boolean createSchema)
      throws Exception {
    Path file = Files.createTempFile(dir, "relay", ".yaml");
    Files.writeString(
        file,
        String.join(
            "\n",
            "http: {host: 127.0.0.1, port: 0}",
            "relays:",
            // PostgreSQL's replication slots are cluster-wide and named after the relay: every IT
            // on the shared server names its CDC relay apart, or its slot is another database's.
            "  - name: " + name,
            "    mode: cdc",
            "    create-schema: " + createSchema,
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
