package dev.outboxrelay.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
  private static final String MINIMAL =
      """
      relays:
        - name: orders
          database:
            url: jdbc:postgresql://127.0.0.1:5432/app
            username: app
            password: s3cret-canary
          publisher:
            type: kafka
            settings:
              bootstrap.servers: 127.0.0.1:9092
      """;

  @Test
  void minimalFileTakesTheDocumentedDefaults() {
    DaemonConfig c = ConfigLoader.parse(MINIMAL, Map.of());
    assertThat(c.http()).isEqualTo(new DaemonConfig.HttpConfig("127.0.0.1", 8080));
    RelayConfig r = c.relays().get(0);
    assertThat(r.mode()).isEqualTo(Mode.POLLING);
    assertThat(r.table().name()).isEqualTo("outbox");
    assertThat(r.batchSize()).isEqualTo(500);
    assertThat(r.pollInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(r.publishTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(r.leaseDuration()).isEqualTo(Duration.ofSeconds(10));
    assertThat(r.listenNotify()).isTrue();
    assertThat(r.strictOrder()).isFalse();
    assertThat(r.keepPublishedFor()).isEmpty();
    assertThat(r.database().poolSize()).isEqualTo(5);
    assertThat(r.publisher().settings()).containsEntry("bootstrap.servers", "127.0.0.1:9092");
  }

  @Test
  void environmentOverridesNameKeysByPath() {
    DaemonConfig c =
        ConfigLoader.parse(
            MINIMAL,
            Map.of(
                "OUTBOX_HTTP_PORT", "0",
                "OUTBOX_RELAYS_0_BATCH_SIZE", "50",
                "OUTBOX_RELAYS_0_DATABASE_PASSWORD", "from-env",
                "OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_BOOTSTRAP_SERVERS", "kafka:9092",
                "OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_MAX_REQUEST_SIZE", "2048",
                "OUTBOX_RELAYS_0_RETENTION", "keep:1h",
                "OUTBOX_LOG_LEVEL", "DEBUG",
                "PATH", "/usr/bin"));
    RelayConfig r = c.relays().get(0);
    assertThat(c.http().port()).isZero();
    assertThat(r.batchSize()).isEqualTo(50);
    assertThat(r.database().password()).isEqualTo("from-env");
    assertThat(r.publisher().settings())
        .containsEntry("bootstrap.servers", "kafka:9092")
        .containsEntry("max.request.size", "2048");
    assertThat(r.keepPublishedFor()).contains(Duration.ofHours(1));
  }

  @Test
  void cdcWithoutAUserIsRefusedWithTheKey() {
    Map<String, String> env =
        Map.of(
            "OUTBOX_RELAYS_0_NAME", "cdc-orders",
            "OUTBOX_RELAYS_0_MODE", "cdc",
            "OUTBOX_RELAYS_0_DATABASE_URL", "jdbc:mariadb://db:3306/app",
            "OUTBOX_RELAYS_0_PUBLISHER_TYPE", "kafka");
    assertThatThrownBy(() -> ConfigLoader.parse("", env))
        .hasMessage(
            "relays[0].database.username is required in cdc mode (Debezium connects as this"
                + " user), but was null");
  }

  @Test
  void startupTimeoutDefaultsToAMinuteAndTakesADuration() {
    Map<String, String> env =
        Map.of(
            "OUTBOX_RELAYS_0_NAME", "orders",
            "OUTBOX_RELAYS_0_DATABASE_URL", "jdbc:postgresql://db/app",
            "OUTBOX_RELAYS_0_PUBLISHER_TYPE", "kafka");
    assertThat(ConfigLoader.parse("", env).startupTimeout()).isEqualTo(Duration.ofSeconds(60));
    Map<String, String> shorter = new java.util.HashMap<>(env);
    shorter.put("OUTBOX_STARTUP_TIMEOUT", "5s");
    assertThat(ConfigLoader.parse("", shorter).startupTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void environmentAloneCanDescribeARelay() {
    DaemonConfig c =
        ConfigLoader.parse(
            "",
            Map.of(
                "OUTBOX_RELAYS_0_NAME", "cdc-orders",
                "OUTBOX_RELAYS_0_MODE", "cdc",
                "OUTBOX_RELAYS_0_DATABASE_URL", "jdbc:mariadb://db:3306/app",
                // cdc needs a user (cdcWithoutAUserIsRefusedWithTheKey)
                "OUTBOX_RELAYS_0_DATABASE_USERNAME", "relay",
                "OUTBOX_RELAYS_0_PUBLISHER_TYPE", "rocketmq",
                "OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_NAMESRVADDR", "ns:9876"));
    RelayConfig r = c.relays().get(0);
    assertThat(r.mode()).isEqualTo(Mode.CDC);
    assertThat(r.listenNotify()).isFalse();
    assertThat(r.pollInterval()).isEqualTo(Duration.ofMillis(20));
    assertThat(r.batchSize()).as("cdc: Debezium's own batch size").isEqualTo(2048);
    assertThat(r.publisher().settings()).containsEntry("namesrvaddr", "ns:9876");
  }

  @Test
  void anEnvironmentVariableThatNamesNoKeyIsRefused() {
    assertThatThrownBy(() -> ConfigLoader.parse(MINIMAL, Map.of("OUTBOX_RELAYS_0_BATCHSIZ", "5")))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith("OUTBOX_RELAYS_0_BATCHSIZ does not name a config key");
  }

  @Test
  void errorsNameTheKeyAndTheBadValue() {
    assertThatThrownBy(() -> parseWith("batch-size: lots"))
        .hasMessage(
            "relays[0].batch-size must be a whole number from 1 to 10000, but was 'lots'"
                + " (config, line 3, column 5)");
    assertThatThrownBy(() -> parseWith("poll-interval: 5 parsecs"))
        .hasMessageStartingWith("relays[0].poll-interval must be a positive duration")
        .hasMessageContaining("'5 parsecs'");
    assertThatThrownBy(() -> parseWith("mode: batch"))
        .hasMessage(
            "relays[0].mode must be one of [polling, cdc], but was 'batch' (config, line 3, column 5)");
    assertThatThrownBy(() -> parseWith("table: \"outbox; DROP TABLE x\""))
        .hasMessage(
            "relays[0].table must be a valid identifier, but was 'outbox; DROP TABLE x'"
                + " (config, line 3, column 5)");
    assertThatThrownBy(() -> parseWith("retention: forever"))
        .hasMessageStartingWith("relays[0].retention must be delete or keep:<duration>");
    assertThatThrownBy(() -> parseWith("batchsize: 5"))
        .hasMessageStartingWith("relays[0].batchsize is not a known key");
    assertThatThrownBy(() -> parseWith("strict-order: true\n    debezium: {a: b}"))
        .hasMessageStartingWith("relays[0].debezium is for mode cdc only");
    assertThatThrownBy(() -> ConfigLoader.parse("relays: []", Map.of()))
        .hasMessageStartingWith("relays must list at least one relay");
    assertThatThrownBy(() -> ConfigLoader.parse("relays: [\n  - name: x\n", Map.of()))
        .hasMessageStartingWith("config is not valid YAML at line");
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    MINIMAL.replace("jdbc:postgresql", "jdbc:oracle:thin"), Map.of()))
        .hasMessageStartingWith("relays[0].database.url must be a jdbc:postgresql:");
  }

  @Test
  void strictOrderIsRefusedOutsidePollingOnPostgres() {
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    MINIMAL
                        .replace(
                            "jdbc:postgresql://127.0.0.1:5432", "jdbc:mariadb://127.0.0.1:3306")
                        .replace("  - name: orders", "  - name: orders\n    strict-order: true"),
                    Map.of()))
        .hasMessage(
            "relays[0].strict-order is for the polling relay on PostgreSQL only, but was true"
                + " (config, line 3, column 5)");
  }

  @Test
  void aMisspelledSecretKeyIsNamedWithASuggestionAndNeverItsValue() {
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    MINIMAL.replace("password: s3cret-canary", "pasword: typo-canary"),
                    Map.of(),
                    "relay.yaml"))
        .hasMessageStartingWith(
            "relays[0].database.pasword is not a known key; did you mean password? (known:")
        .hasMessageEndingWith("(relay.yaml, line 6, column 7)")
        .hasMessageNotContaining("typo-canary");
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    MINIMAL, Map.of("OUTBOX_RELAYS_0_DATABASE_PASSWROD", "env-canary")))
        .hasMessageStartingWith(
            "OUTBOX_RELAYS_0_DATABASE_PASSWROD does not name a config key; did you mean"
                + " OUTBOX_RELAYS_0_DATABASE_PASSWORD?")
        .hasMessageNotContaining("env-canary");
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    MINIMAL, Map.of("OUTBOX_RELAYS_0_DATABASE_PASSWORD_FILE", "canary-42")))
        .hasMessageNotContaining("canary-42");
  }

  @Test
  void secretsInsideValuesAreMaskedInErrorsAndInToString() {
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    MINIMAL.replace(
                        "jdbc:postgresql://127.0.0.1:5432/app",
                        "jdbc:oracle://db/app?user=u&password=url-canary"),
                    Map.of()))
        .hasMessageContaining("jdbc:oracle://db/app?user=u&password=******")
        .hasMessageNotContaining("url-canary");
    DaemonConfig c =
        ConfigLoader.parse(
            MINIMAL.replace(
                "bootstrap.servers: 127.0.0.1:9092",
                "bootstrap.servers: 127.0.0.1:9092\n        ssl.key.password: key-canary"),
            Map.of("OUTBOX_HTTP_TOKEN", "token-canary-0123456789"));
    assertThat(c.relays().get(0).database().toString()).doesNotContain("s3cret-canary");
    assertThat(c.relays().get(0).publisher().toString()).doesNotContain("key-canary");
    assertThat(c.http().toString()).doesNotContain("token-canary");
    assertThat(c.http().token()).contains("token-canary-0123456789");
    assertThatThrownBy(
            () -> ConfigLoader.parse(MINIMAL, Map.of("OUTBOX_HTTP_TOKEN", "short-canary")))
        .hasMessageStartingWith("http.token must be at least 16 printable characters")
        .hasMessageNotContaining("short-canary");
  }

  @Test
  void aTabIsReportedAtItsOwnLineWithTheParsersReason() {
    String yaml = MINIMAL.replace("      password: s3cret-canary", "\tpassword: s3cret-canary");
    assertThatThrownBy(() -> ConfigLoader.parse(yaml, Map.of(), "relay.yaml"))
        .hasMessageStartingWith("relay.yaml is not valid YAML at line 6, column 1: ")
        .hasMessageContaining("TAB")
        .hasMessageNotContaining("s3cret-canary");
  }

  @Test
  void aBadIndentIsReportedWithLineColumnAndReason() {
    String yaml = MINIMAL.replace("      username: app", "       username: app");
    assertThatThrownBy(() -> ConfigLoader.parse(yaml, Map.of(), "relay.yaml"))
        .hasMessageStartingWith("relay.yaml is not valid YAML at line 5, column 16: ")
        .hasMessageContaining("mapping values are not allowed here")
        .hasMessageNotContaining("s3cret-canary");
  }

  @Test
  void aDuplicateKeyIsAnErrorNamingTheKeyAndItsLine() {
    String yaml =
        MINIMAL.replace(
            "      password: s3cret-canary",
            "      password: s3cret-canary\n      password: other-canary");
    assertThatThrownBy(() -> ConfigLoader.parse(yaml, Map.of(), "relay.yaml"))
        // Jackson reports a duplicate where it finished reading the key: the column after it.
        .hasMessageStartingWith("relay.yaml is not valid YAML at line 7, column 15: ")
        .hasMessageContaining("Duplicate field 'password'")
        .hasMessageNotContaining("canary");
  }

  @Test
  void aWrongTypeNamesTheKeyTheFileLineAndColumn() {
    String yaml = MINIMAL.replace("  - name: orders", "  - name: orders\n    batch-size: [1, 2]");
    assertThatThrownBy(() -> ConfigLoader.parse(yaml, Map.of(), "relay.yaml"))
        .hasMessage(
            "relays[0].batch-size must be a single value, but was ARRAY (relay.yaml, line 3, column 5)");
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    MINIMAL.replace("password: s3cret-canary", "password: {a: canary}"),
                    Map.of(),
                    "relay.yaml"))
        .hasMessage(
            "relays[0].database.password must be a single value, but was ******"
                + " (relay.yaml, line 6, column 7)");
    assertThatThrownBy(
            () -> ConfigLoader.parse(MINIMAL, Map.of("OUTBOX_RELAYS_0_BATCH_SIZE", "lots")))
        .hasMessage(
            "relays[0].batch-size must be a whole number from 1 to 10000, but was 'lots'"
                + " (set by OUTBOX_RELAYS_0_BATCH_SIZE)");
  }

  @Test
  void durationsTakeUnitsOrIso8601() {
    assertThat(ConfigLoader.parseDuration("k", "250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(ConfigLoader.parseDuration("k", "3 s")).isEqualTo(Duration.ofSeconds(3));
    assertThat(ConfigLoader.parseDuration("k", "2d")).isEqualTo(Duration.ofDays(2));
    assertThat(ConfigLoader.parseDuration("k", "PT1M")).isEqualTo(Duration.ofMinutes(1));
    assertThatThrownBy(() -> ConfigLoader.parseDuration("k", "0s"))
        .hasMessageStartingWith("k must be a positive duration");
    assertThatThrownBy(() -> ConfigLoader.parseDuration("k", "500"))
        .hasMessageStartingWith("k must be a positive duration");
  }

  @Test
  void reconcileIsOffByDefaultAndRefusedWhereItCouldCheckNothing() {
    RelayConfig off = ConfigLoader.parse(MINIMAL, Map.of()).relays().get(0);
    assertThat(off.reconcile()).isEqualTo(RelayConfig.ReconcileConfig.defaults());
    assertThat(off.reconcile().enabled()).isFalse();
    RelayConfig on =
        parseWith(
                "retention: keep:1h\n    reconcile: {enabled: true, interval: 1m, republish: yes}")
            .relays()
            .get(0);
    assertThat(on.reconcile())
        .isEqualTo(
            new RelayConfig.ReconcileConfig(
                true, Duration.ofMinutes(1), Duration.ofMinutes(15), Duration.ofMinutes(1), true));

    assertThatThrownBy(() -> parseWith("reconcile: {enabled: true}"))
        .hasMessage(
            "relays[0].retention must be keep:<duration> when reconcile.enabled is true (with"
                + " delete a row is deleted once the broker acknowledged it, leaving nothing to"
                + " compare with the broker), but was 'delete' (config, line 2, column 5)");
    assertThatThrownBy(() -> parseWith("retention: keep:10m\n    reconcile: {enabled: true}"))
        .hasMessageStartingWith(
            "relays[0].reconcile.window plus reconcile.lag PT1M must not exceed the retention"
                + " keep:PT10M");
    assertThatThrownBy(
            () -> parseWith("retention: keep:1h\n    reconcile: {enabled: true, interval: 20m}"))
        .hasMessageStartingWith("relays[0].reconcile.interval must not exceed reconcile.window");
    assertThatThrownBy(() -> parseWith("reconcile: {enabled: true, lag: 0s}"))
        .hasMessageStartingWith("relays[0].reconcile.lag must be a positive duration");
    assertThatThrownBy(() -> parseWith("reconcile: {enbled: true}"))
        .hasMessageStartingWith("relays[0].reconcile.enbled is not a known key; did you mean");
    // Off, nothing is checked: the settings may wait in the file for a retention change.
    assertThat(parseWith("reconcile: {interval: 1h, window: 1m}").relays().get(0).reconcile())
        .extracting(RelayConfig.ReconcileConfig::enabled)
        .isEqualTo(false);
  }

  @Test
  void aDeadLetterTopicIsOffByDefaultAndABadOneIsNamedWithItsKeyAndValue() {
    assertThat(ConfigLoader.parse(MINIMAL, Map.of()).relays().get(0).publisher().deadLetterTopic())
        .isEmpty();
    String withTopic =
        MINIMAL.replace("    type: kafka", "    type: kafka\n      dead-letter-topic: %s");
    assertThat(
            ConfigLoader.parse(withTopic.formatted("orders.dead-letters"), Map.of())
                .relays()
                .get(0)
                .publisher()
                .deadLetterTopic())
        .contains("orders.dead-letters");
    assertThatThrownBy(() -> ConfigLoader.parse(withTopic.formatted("'dead letters'"), Map.of()))
        .hasMessageStartingWith(
            "relays[0].publisher.dead-letter-topic must be 1 to 127 characters from"
                + " [a-zA-Z0-9._-], but was 'dead letters'");
    assertThatThrownBy(
            () ->
                ConfigLoader.parse(
                    MINIMAL.replace(
                        "    type: kafka", "    type: kafka\n      dead-letter-topc: x"),
                    Map.of()))
        .hasMessageContaining("relays[0].publisher.dead-letter-topc is not a known key");
    assertThat(
            ConfigLoader.parse(
                    MINIMAL, Map.of("OUTBOX_RELAYS_0_PUBLISHER_DEAD_LETTER_TOPIC", "orders-dlq"))
                .relays()
                .get(0)
                .publisher()
                .deadLetterTopic())
        .contains("orders-dlq");
  }

  @Test
  void aCdcRelayTakesADeadLetterTopicToo() {
    String cdc =
        MINIMAL
            .replace("  - name: orders", "  - name: orders\n    mode: cdc")
            .replace("    type: kafka", "    type: kafka\n      dead-letter-topic: orders-dlq");
    assertThat(ConfigLoader.parse(cdc, Map.of()).relays().get(0).publisher().deadLetterTopic())
        .contains("orders-dlq");
  }

  private static DaemonConfig parseWith(String relayLine) {
    return ConfigLoader.parse(
        MINIMAL.replace("  - name: orders", "  - name: orders\n    " + relayLine), Map.of());
  }
}
