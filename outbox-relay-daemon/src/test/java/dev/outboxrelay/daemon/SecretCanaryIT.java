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
import dev.outboxrelay.writer.OutboxSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Canary secrets in every place a secret can be given (a JDBC URL parameter, the password key, the
 * Kafka {@code sasl.jaas.config} and {@code ssl.key.password} settings, the HTTP token, a
 * misspelled key in the YAML, a misspelled environment variable) and every command of the daemon
 * jar run as a process against a real PostgreSQL and Kafka with DEBUG logging: no canary appears in
 * any output, stdout or stderr, of {@code run}, {@code status}, {@code parked}, {@code replay},
 * {@code verify} or the error paths. The endpoints are checked on the running daemon.
 */
class SecretCanaryIT {
  private static final String URL_CANARY = "canary-url-4d1e";
  private static final String KEY_CANARY = "canary-key-88b0";
  private static final String JAAS_CANARY = "canary-jaas-2c7f";
  private static final String SSL_CANARY = "canary-ssl-93aa";
  private static final String TOKEN_CANARY = "canary-token-5e6b-0123456789";
  private static final String YAML_TYPO_CANARY = "canary-yamltypo-71f0";
  private static final String ENV_TYPO_CANARY = "canary-envtypo-0b3c";
  private static final String RMQ_CANARY = "canary-rmq-6a1d";
  private static final String RMQ_TYPO_CANARY = "canary-rmqtypo-d2e4";
  private static final List<String> CANARIES =
      List.of(
          URL_CANARY,
          KEY_CANARY,
          JAAS_CANARY,
          SSL_CANARY,
          TOKEN_CANARY,
          YAML_TYPO_CANARY,
          ENV_TYPO_CANARY,
          RMQ_CANARY,
          RMQ_TYPO_CANARY);
  private static final Map<String, String> DEBUG =
      Map.of(
          "OUTBOX_LOG_LEVEL", "DEBUG",
          "OUTBOX_KAFKA_LOG_LEVEL", "DEBUG",
          "OUTBOX_DEBEZIUM_LOG_LEVEL", "DEBUG");
  private static final Duration CLI = Duration.ofSeconds(90);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;
  private final List<DaemonProcess> started = new ArrayList<>();
  private final List<String> outputs = new ArrayList<>();

  @AfterEach
  void stopDaemons() {
    started.forEach(DaemonProcess::close);
  }

  @Test
  void noSecretReachesAnyOutputOfAnyCommand() throws Exception {
    PostgresServer pg = PostgresServer.shared();
    KafkaServer kafka = KafkaServer.shared();
    String database = pg.createDatabase();
    try (HikariDataSource app = pg.dataSource(database, 2)) {
      try (Connection c = app.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      kafka.createTopic("outbox.event.canary", 1);
      String url = pg.jdbcUrl(database) + "?user=" + pg.user() + "&password=" + URL_CANARY;
      Path config = writeConfig(url, kafka.bootstrapServers(), "password: " + KEY_CANARY);
      Instant t0 = Instant.now().minusSeconds(5);

      DaemonProcess daemon = DaemonProcess.run(config, DEBUG);
      started.add(daemon);
      endpointsAnswerAsDocumented(daemon);

      OutboxMessage m =
          OutboxMessage.builder()
              .aggregateType("canary")
              .aggregateId("k-1")
              .type("Canary")
              .payload("{}")
              .build();
      DaemonScrape.save(app, m);
      try (KafkaTopicReader reader = new KafkaTopicReader(kafka.bootstrapServers())) {
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> reader.readAll("outbox.event.canary").size() == 1);
      }
      // Marked done after the ack: verify and replay look for published rows.
      OutboxAdmin admin = OutboxAdmin.of(app, OutboxTable.defaults());
      await().atMost(Duration.ofSeconds(30)).until(() -> admin.pendingCount() == 0);
      String cfg = config.toString();
      assertThat(cli(0, "status", "--relay", "orders", "--config", cfg)).contains("relay orders");
      assertThat(cli(0, "parked", "list", "--relay", "orders", "--config", cfg))
          .contains("0 parked key(s) in relay orders");
      assertThat(cli(0, "verify", "--since", t0.toString(), "--relay", "orders", "--config", cfg))
          .contains("missing: 0 of 1");
      // After verify: a replayed row is pending until the relay sends it again.
      assertThat(cli(0, "replay", "--key", "k-1", "--relay", "orders", "--config", cfg))
          .contains("1 message(s) set to be published again");
      assertThat(daemon.terminate(Duration.ofSeconds(30))).isEqualTo(143);
      outputs.add(daemon.output());
      // The masks were applied where the secrets were printed, by key (not vacuously absent).
      assertThat(daemon.output())
          .contains(" DEBUG ")
          .contains("?user=" + pg.user() + "&password=******")
          .contains("sasl.jaas.config=******")
          .contains("ssl.key.password=******");

      errorPathsNameTheKeyAndNoValue(pg, database, kafka);
    }
    for (String out : outputs) {
      for (String canary : CANARIES) {
        assertThat(out).as("output must not contain " + canary).doesNotContain(canary);
      }
    }
  }

  private void errorPathsNameTheKeyAndNoValue(PostgresServer pg, String database, KafkaServer k)
      throws Exception {
    String url = pg.jdbcUrl(database) + "?password=" + URL_CANARY;
    Path typo = writeConfig(url, k.bootstrapServers(), "pasword: " + YAML_TYPO_CANARY);
    assertThat(cli(2, "run", "--config", typo.toString()))
        .contains("relays[0].database.pasword is not a known key; did you mean password?")
        .contains("line 13, column 7");
    Path config = writeConfig(url, k.bootstrapServers(), "password: " + KEY_CANARY);
    Map<String, String> env = new HashMap<>(DEBUG);
    env.put("OUTBOX_RELAYS_0_DATABASE_PASSWROD", ENV_TYPO_CANARY);
    assertThat(cli(2, env, "status", "--config", config.toString()))
        .contains(
            "OUTBOX_RELAYS_0_DATABASE_PASSWROD does not name a config key; did you mean"
                + " OUTBOX_RELAYS_0_DATABASE_PASSWORD?");
    env = new HashMap<>(DEBUG);
    env.put(
        "OUTBOX_RELAYS_0_DATABASE_URL", "jdbc:postgresql://127.0.0.1:1/x?password=" + URL_CANARY);
    // A database that does not answer is retried until startup-timeout, then exit 4 (unavailable).
    env.put("OUTBOX_STARTUP_TIMEOUT", "1s");
    assertThat(cli(4, env, "run", "--config", config.toString()))
        .contains("Unavailable: relays[0].database.url")
        .contains("jdbc:postgresql://127.0.0.1:1/x?password=******")
        .contains("is not reachable");
    // RocketMQ client settings: the settings dump masks secretKey; a misspelled one is named only.
    Path rocketmq = dir.resolve("rocketmq.yaml");
    Files.writeString(
        rocketmq,
        String.join(
            "\n",
            "relays:",
            "  - name: orders",
            "    database:",
            "      url: '" + url + "'",
            "      username: postgres",
            "    publisher:",
            "      type: rocketmq",
            "      settings:",
            "        namesrvAddr: 127.0.0.1:1",
            "        accessKey: relay",
            "        secretKey: " + RMQ_CANARY,
            "        secertKey: " + RMQ_TYPO_CANARY,
            ""));
    assertThat(cli(2, "run", "--config", rocketmq.toString()))
        .contains("secertKey is not a setting of RocketMQ's DefaultMQProducer")
        .contains("secretKey=******");
    Path tab = dir.resolve("tab.yaml");
    Files.writeString(
        tab,
        Files.readString(config)
            .replace("      password: " + KEY_CANARY, "\tpassword: " + KEY_CANARY));
    assertThat(cli(2, "verify", "--since", "2026-01-01T00:00:00Z", "--config", tab.toString()))
        .contains(tab + " is not valid YAML at line 13, column 1:");
  }

  private void endpointsAnswerAsDocumented(DaemonProcess daemon) throws Exception {
    assertThat(get(daemon, "GET", "/health/live", null).statusCode()).isEqualTo(200);
    assertThat(get(daemon, "GET", "/metrics", null).statusCode()).isEqualTo(401);
    assertThat(get(daemon, "GET", "/metricsX", "Bearer " + TOKEN_CANARY).statusCode())
        .isEqualTo(404);
    HttpResponse<String> post = get(daemon, "POST", "/health/ready", null);
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
    HttpResponse<String> metrics = get(daemon, "GET", "/metrics", "Bearer " + TOKEN_CANARY);
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .containsPattern("# HELP outbox_retries_total \\S")
        .containsPattern("# HELP outbox_backlog_messages \\S");
  }

  private Path writeConfig(String url, String bootstrap, String passwordLine) throws Exception {
    Path config = dir.resolve("relay-" + outputs.size() + "-" + System.nanoTime() + ".yaml");
    Files.writeString(
        config,
        String.join(
            "\n",
            "http:",
            "  host: 127.0.0.1",
            "  port: 0",
            "  token: " + TOKEN_CANARY,
            "relays:",
            "  - name: orders",
            "    mode: polling",
            "    retention: keep:1h",
            "    poll-interval: 100ms",
            "    database:",
            "      url: '" + url + "'",
            "      username: postgres",
            "      " + passwordLine,
            "    publisher:",
            "      type: kafka",
            "      settings:",
            "        bootstrap.servers: " + bootstrap,
            "        sasl.jaas.config: 'org.apache.kafka.common.security.plain.PlainLoginModule"
                + " required username=\"relay\" password=\""
                + JAAS_CANARY
                + "\";'",
            "        ssl.key.password: " + SSL_CANARY,
            "  - name: canary_cdc",
            "    mode: cdc",
            "    table: canary_outbox",
            "    create-schema: true",
            "    database:",
            "      url: '" + url + "'",
            "      username: postgres",
            "      password: " + KEY_CANARY,
            "    publisher:",
            "      type: kafka",
            "      settings:",
            "        bootstrap.servers: " + bootstrap,
            ""));
    return config;
  }

  private String cli(int exitCode, String... args) {
    return cli(exitCode, DEBUG, args);
  }

  private String cli(int exitCode, Map<String, String> env, String... args) {
    DaemonProcess.Result r = DaemonProcess.exec(List.of(args), env, CLI);
    outputs.add(r.output());
    assertThat(r.exitCode()).as(String.join(" ", args) + ": " + r.output()).isEqualTo(exitCode);
    return r.output();
  }

  private static HttpResponse<String> get(
      DaemonProcess d, String method, String path, String authorization) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://" + d.httpAddress() + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
