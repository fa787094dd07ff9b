package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.servers.DaemonProcess;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.writer.OutboxSchema;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every start-up problem has its own exit code and a message naming what failed, and is found
 * before any relay takes work: a busy HTTP port, credentials the database refuses, a database or
 * broker that does not answer within {@code startup-timeout}, missing tables; bad arguments exit 2.
 */
class DaemonStartupIT {
  private static final Duration CLI = Duration.ofSeconds(90);
  private static PostgresServer pg;
  private static KafkaServer kafka;
  private static String database;
  private static HikariDataSource app;

  @TempDir Path dir;

  @BeforeAll
  static void servers() throws Exception {
    pg = PostgresServer.shared();
    kafka = KafkaServer.shared();
    database = pg.createDatabase();
    app = pg.dataSource(database, 2);
    try (Connection c = app.getConnection()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
  }

  @AfterAll
  static void closePool() {
    app.close();
  }

  @Test
  void aBusyPortIsFoundBeforeAnyRelayTakesALease() throws Exception {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      DaemonProcess.Result r =
          run(config(pg.jdbcUrl(database), pg.user(), busy.getLocalPort()), Map.of());
      assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_PORT_IN_USE);
      assertThat(r.output())
          .contains("Cannot listen: http.port " + busy.getLocalPort() + " on 127.0.0.1")
          .contains("another process listens there")
          .doesNotContain("Relay orders started");
    }
    assertThat(OutboxAdmin.of(app, OutboxTable.defaults()).leaseOwners()).isEmpty();
  }

  @Test
  void aRefusedUserIsAnAuthenticationFailureNotAnOutage() throws Exception {
    // The test server trusts every password; an unknown role is refused with SQLState 28000.
    DaemonProcess.Result r = run(config(pg.jdbcUrl(database), "no_such_role", 0), Map.of());
    assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_AUTHENTICATION);
    assertThat(r.output())
        .contains("Authentication failed: relays[0].database.url " + pg.jdbcUrl(database))
        .contains("refused user 'no_such_role' (SQLState 28000)")
        .doesNotContain("not reachable");
  }

  @Test
  void aDatabaseOrBrokerThatDoesNotAnswerIsRetriedUntilTheStartupTimeout() throws Exception {
    String down = "jdbc:postgresql://127.0.0.1:1/" + database;
    DaemonProcess.Result db =
        run(config(down, pg.user(), 0), Map.of("OUTBOX_STARTUP_TIMEOUT", "1500ms"));
    assertThat(db.exitCode()).as(db.output()).isEqualTo(OutboxRelayDaemon.EXIT_UNAVAILABLE);
    assertThat(db.output())
        .contains("Unavailable: relays[0].database.url " + down + " is not reachable (")
        // How many attempts fit depends on the machine (the first one may take the whole 1.5 s
        // on a loaded one); that the daemon retries is asserted by the test that opens the port.
        .contains("attempt(s) within startup-timeout PT1.5S)");

    DaemonProcess.Result broker =
        run(
            config(pg.jdbcUrl(database), pg.user(), 0),
            Map.of(
                "OUTBOX_STARTUP_TIMEOUT", "2s",
                "OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_BOOTSTRAP_SERVERS", "127.0.0.1:1"));
    assertThat(broker.exitCode()).as(broker.output()).isEqualTo(OutboxRelayDaemon.EXIT_UNAVAILABLE);
    assertThat(broker.output())
        .contains(
            "Unavailable: relays[0].publisher kafka bootstrap.servers 127.0.0.1:1 is not reachable")
        .doesNotContain("Relay orders started");
  }

  @Test
  void aBrokerThatRefusesTheAuthenticationExits5AtOnce() throws Exception {
    // SASL against the plaintext listener: the broker answers the handshake with
    // ILLEGAL_SASL_STATE, an AuthenticationException like a wrong password.
    DaemonProcess.Result r =
        run(
            config(pg.jdbcUrl(database), pg.user(), 0),
            Map.of(
                "OUTBOX_STARTUP_TIMEOUT",
                "10m",
                "OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_SECURITY_PROTOCOL",
                "SASL_PLAINTEXT",
                "OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_SASL_MECHANISM",
                "PLAIN",
                "OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_SASL_JAAS_CONFIG",
                "org.apache.kafka.common.security.plain.PlainLoginModule required"
                    + " username=\"relay\" password=\"sasl-canary-7731\";"));
    assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_AUTHENTICATION);
    assertThat(r.output())
        .contains(
            "Authentication failed: relays[0].publisher kafka bootstrap.servers "
                + kafka.bootstrapServers()
                + " refused the credentials or the TLS handshake")
        .doesNotContain("within startup-timeout")
        .doesNotContain("sasl-canary-7731")
        .doesNotContain("Relay orders started");
  }

  @Test
  void aDatabaseThatComesUpDuringTheStartupTimeoutIsWaitedFor() throws Exception {
    try (LateForwarder db = new LateForwarder(pg.port())) {
      String late = "jdbc:postgresql://127.0.0.1:" + db.port() + "/" + database;
      Path config = config(late, pg.user(), 0);
      try (DaemonProcess daemon =
          DaemonProcess.start(
              List.of("run", "--config", config.toString()),
              Map.of("OUTBOX_STARTUP_TIMEOUT", "60s"),
              "daemon")) {
        // The database comes up only once the daemon has seen it down.
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> daemon.output().contains("database not reachable yet (attempt 1)"));
        assertThat(daemon.output()).doesNotContain("Relay orders started");
        db.open();
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> daemon.output().contains("outbox-relay-daemon ready http="));
        assertThat(daemon.output()).contains("Relay orders started");
        assertThat(daemon.terminate(Duration.ofSeconds(30))).isEqualTo(143);
      }
    }
  }

  @Test
  void missingTablesStopTheStartNamingTheTableAndTheOption() throws Exception {
    String bare = tablesThen(pg, "DROP TABLE outbox_lease");
    DaemonProcess.Result r = run(config(pg.jdbcUrl(bare), pg.user(), 0), Map.of());
    assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_SCHEMA_MISSING);
    assertThat(r.output())
        .contains("Schema missing: relays[0] (orders): table(s) outbox_lease missing in ")
        .contains("or set relays[0].create-schema: true")
        .doesNotContain("does not exist; retrying");
  }

  /**
   * MySQL/MariaDB: the relays name rows by a unique key ({@code RowsByKey}); a table whose id is
   * not unique is refused at start, naming what it has, not at the first mark.
   */
  @Test
  void anOutboxTableWhoseIdIsNotUniqueStopsTheStartNamingItsIndexes() throws Exception {
    MariaDbServer mariadb = MariaDbServer.shared();
    String bare =
        tablesThen(mariadb, "ALTER TABLE outbox DROP INDEX outbox_id, ADD INDEX outbox_id (id)");
    // The test server's root has no password over TCP.
    DaemonProcess.Result r = run(config(mariadb.jdbcUrl(bare), "root", 0), Map.of());
    assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_SCHEMA_MISSING);
    assertThat(r.output())
        .contains("relays[0] (orders): table must have a unique index on its id column alone")
        .contains("unique indexes found: {PRIMARY=seq}");
  }

  @Test
  void aSchemaUpgradedWithoutTheDiscardedTableIsReportedByRunAndTheOperatorCommands()
      throws Exception {
    String bare = tablesThen(pg, "DROP TABLE outbox_discarded");
    Path config = config(pg.jdbcUrl(bare), pg.user(), 0);
    String missing = "Schema missing: relays[0] (orders): table(s) outbox_discarded missing in ";
    DaemonProcess.Result run = run(config, Map.of());
    assertThat(run.exitCode()).as(run.output()).isEqualTo(OutboxRelayDaemon.EXIT_SCHEMA_MISSING);
    assertThat(run.output()).contains(missing).contains("or set relays[0].create-schema: true");

    DaemonProcess.Result list = cli("parked", "list", "--config", config.toString());
    assertThat(list.exitCode()).as(list.output()).isEqualTo(OutboxRelayDaemon.EXIT_SCHEMA_MISSING);
    assertThat(list.output()).contains(missing).doesNotContain("Failed: ");
  }

  @Test
  void aRelaySettingTheBuilderRefusesExits2BeforeTheBrokerIsWaitedFor() throws Exception {
    // A broker that never answers and a long startup-timeout: only a build before the wait exits
    // 2 at once (the CDC builder refuses debezium max.batch.size; batch-size sets it).
    DaemonProcess.Result r =
        run(
            config(pg.jdbcUrl(database), pg.user(), 0),
            Map.of(
                "OUTBOX_STARTUP_TIMEOUT", "10m",
                "OUTBOX_RELAYS_0_MODE", "cdc",
                "OUTBOX_RELAYS_0_DEBEZIUM_MAX_BATCH_SIZE", "10",
                "OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_BOOTSTRAP_SERVERS", "127.0.0.1:1"));
    assertThat(r.exitCode()).as(r.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(r.output())
        .contains("Invalid configuration: debeziumProperties.max.batch.size")
        .doesNotContain("broker not reachable yet");
  }

  @Test
  void badArgumentsExit2BeforeAnythingStarts() throws Exception {
    Path config = config(pg.jdbcUrl(database), pg.user(), 0);
    DaemonProcess.Result status = cli("status", "--relay", "nope", "--config", config.toString());
    assertThat(status.exitCode()).as(status.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(status.output())
        .contains(
            "Invalid configuration: --relay must name a relay of the config file, one of"
                + " [orders], but was 'nope'");

    DaemonProcess.Result cdc =
        DaemonProcess.exec(
            List.of("run", "--config", config.toString()),
            Map.of("OUTBOX_RELAYS_0_MODE", "cdc", "OUTBOX_RELAYS_0_DATABASE_USERNAME", ""),
            CLI);
    assertThat(cdc.exitCode()).as(cdc.output()).isEqualTo(OutboxRelayDaemon.EXIT_CONFIG);
    assertThat(cdc.output()).contains("relays[0].database.username is required in cdc mode");
  }

  /** A new database with the outbox tables, then {@code statement} run on it; returns its name. */
  private static String tablesThen(DatabaseServer server, String statement) throws Exception {
    String database = server.createDatabase();
    try (HikariDataSource ds = server.dataSource(database, 1);
        Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      st.execute(statement);
    }
    return database;
  }

  private Path config(String url, String user, int port) throws Exception {
    Path file = Files.createTempFile(dir, "relay", ".yaml");
    Files.writeString(
        file,
        String.join(
            "\n",
            "http:",
            "  host: 127.0.0.1",
            "  port: " + port,
            "relays:",
            "  - name: orders",
            "    database:",
            "      url: " + url,
            "      username: " + user,
            "    publisher:",
            "      type: kafka",
            "      settings:",
            "        bootstrap.servers: " + kafka.bootstrapServers(),
            ""));
    return file;
  }

  private static DaemonProcess.Result run(Path config, Map<String, String> env) {
    return DaemonProcess.exec(List.of("run", "--config", config.toString()), env, CLI);
  }

  private static DaemonProcess.Result cli(String... args) {
    return DaemonProcess.exec(List.of(args), Map.of(), CLI);
  }
}
