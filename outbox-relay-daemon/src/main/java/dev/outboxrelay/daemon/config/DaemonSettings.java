package dev.outboxrelay.daemon.config;

import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Setting;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import dev.outboxrelay.relay.cdc.CdcSettings;
import dev.outboxrelay.relay.polling.PollingSettings;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The settings only the daemon has, declared once, and the relays' settings it accepts (declared by
 * {@link PollingSettings} and {@link CdcSettings}). The loader binds through these; the README's
 * config table is checked against them ({@code DocumentedKeysTest}).
 */
public final class DaemonSettings {
  private static final Pattern RELAY_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

  /** {@code http.host}: the address the endpoints bind. */
  public static final Setting<String> HTTP_HOST =
      Setting.text("host", "127.0.0.1", h -> !h.isBlank(), "must not be blank", "endpoint address");

  /** {@code http.port}: 0 picks a free port. */
  public static final Setting<Integer> HTTP_PORT =
      Setting.integer("port", 8080, 0, 65535, "endpoint port; 0 picks a free one");

  /** {@code http.token}: bearer token required on {@code /metrics}; empty means none. */
  public static final Setting<String> HTTP_TOKEN =
      Setting.text(
              "token",
              null,
              t -> t.length() >= 16 && t.chars().allMatch(c -> c > 32 && c < 127),
              "must be at least 16 printable characters without spaces",
              "bearer token required on /metrics")
          .secret();

  /** How long {@code run} waits for the databases and brokers at start-up before it exits 4. */
  public static final Setting<Duration> STARTUP_TIMEOUT =
      Setting.duration(
          "startup-timeout",
          Duration.ofSeconds(60),
          Duration.ofMillis(1),
          "wait for databases and brokers at start-up");

  /** {@code relays[].name}: unique; the {@code relay} tag of every metric. */
  public static final Setting<String> NAME =
      Setting.text(
          "name",
          null,
          n -> RELAY_NAME.matcher(n).matches(),
          "must be 1 to 64 letters, digits, '_', '.' or '-'",
          "relay name, unique");

  /** {@code relays[].mode}: {@code polling} or {@code cdc}. */
  public static final Setting<String> MODE =
      Setting.text(
          "mode",
          "polling",
          m -> m.equalsIgnoreCase("polling") || m.equalsIgnoreCase("cdc"),
          "must be one of [polling, cdc]",
          "polling or cdc");

  /** {@code relays[].table}: the outbox table. */
  public static final Setting<String> TABLE =
      Setting.text("table", "outbox", DaemonSettings::validTable, "must be a valid identifier", "");

  /** {@code relays[].create-schema}: create the outbox tables if missing. */
  public static final Setting<Boolean> CREATE_SCHEMA =
      Setting.bool("create-schema", false, "create the outbox tables if missing");

  /** {@code relays[].retention}: {@code delete} or {@code keep:<duration>}. */
  public static final Setting<String> RETENTION =
      Setting.text(
          "retention",
          "delete",
          r -> r.equals("delete") || r.startsWith("keep:"),
          "must be delete or keep:<duration>, e.g. keep:1h",
          "delete or keep:<duration>");

  /** {@code relays[].database.url}. */
  public static final Setting<String> DATABASE_URL =
      Setting.text(
          "url",
          null,
          u ->
              Stream.of("postgresql", "mariadb", "mysql")
                  .anyMatch(d -> u.startsWith("jdbc:" + d + ":")),
          "must be a jdbc:postgresql:, jdbc:mariadb: or jdbc:mysql: URL",
          "JDBC URL");

  /** {@code relays[].database.username}; required in cdc mode. */
  public static final Setting<String> DATABASE_USERNAME =
      Setting.text("username", null, u -> true, "", "database user");

  /** {@code relays[].database.password}. */
  public static final Setting<String> DATABASE_PASSWORD =
      Setting.text("password", null, p -> true, "", "database password").secret();

  /** {@code relays[].database.pool-size}: HikariCP's maximum pool size; cdc: 3. */
  public static final Setting<Integer> POOL_SIZE =
      Setting.integer("pool-size", 5, 1, 100, "HikariCP maximum pool size");

  /** {@code relays[].reconcile.enabled}: run the reconciliation loop in {@code run}. */
  public static final Setting<Boolean> RECONCILE_ENABLED =
      Setting.bool("enabled", false, "run the reconciliation loop");

  /** {@code relays[].reconcile.interval}: time between two runs. */
  public static final Setting<Duration> RECONCILE_INTERVAL =
      Setting.duration(
          "interval", Duration.ofMinutes(5), Duration.ofSeconds(1), "time between two runs");

  /** {@code relays[].reconcile.window}: how much creation time one run checks. */
  public static final Setting<Duration> RECONCILE_WINDOW =
      Setting.duration(
          "window", Duration.ofMinutes(15), Duration.ofSeconds(1), "creation time one run checks");

  /** {@code relays[].reconcile.lag}: how old a row must be before it is checked. */
  public static final Setting<Duration> RECONCILE_LAG =
      Setting.duration(
          "lag", Duration.ofMinutes(1), Duration.ofMillis(1), "age before a row is checked");

  /** {@code relays[].reconcile.republish}: send missing messages again (same id). */
  public static final Setting<Boolean> RECONCILE_REPUBLISH =
      Setting.bool("republish", false, "send missing messages again with the same id");

  /**
   * {@code relays[].publisher.dead-letter-topic}: where a parked key's message is copied once
   * (polling and CDC relays; off when unset). Declared by the relays ({@code RelaySettings}).
   */
  public static final Setting<String> DEAD_LETTER_TOPIC = PollingSettings.DEAD_LETTER_TOPIC;

  /** The relays' own settings a daemon relay accepts (defaults: polling's; see {@link #of}). */
  public static final List<Setting<?>> RELAY_TUNING =
      List.of(
          PollingSettings.BATCH_SIZE,
          PollingSettings.IN_FLIGHT_BATCHES,
          PollingSettings.POLL_INTERVAL,
          PollingSettings.LEASE_DURATION,
          PollingSettings.STRICT_ORDER,
          PollingSettings.LISTEN_NOTIFY,
          PollingSettings.PUBLISH_TIMEOUT,
          PollingSettings.BACKOFF_INITIAL,
          PollingSettings.BACKOFF_MAX);

  public static final List<Setting<?>> HTTP = List.of(HTTP_HOST, HTTP_PORT, HTTP_TOKEN);
  public static final List<Setting<?>> RELAY = List.of(NAME, MODE, TABLE, CREATE_SCHEMA, RETENTION);
  public static final List<Setting<?>> PUBLISHER = List.of(DEAD_LETTER_TOPIC);
  public static final List<Setting<?>> DATABASE =
      List.of(DATABASE_URL, DATABASE_USERNAME, DATABASE_PASSWORD, POOL_SIZE);
  public static final List<Setting<?>> RECONCILE =
      List.of(
          RECONCILE_ENABLED,
          RECONCILE_INTERVAL,
          RECONCILE_WINDOW,
          RECONCILE_LAG,
          RECONCILE_REPUBLISH);

  private DaemonSettings() {}

  /** The setting as the relay of this mode declares it: its default may differ (poll-interval). */
  @SuppressWarnings("unchecked")
  public static <T> Setting<T> of(Setting<T> setting, Mode mode) {
    if (setting == POOL_SIZE && mode == Mode.CDC) {
      return (Setting<T>) POOL_SIZE.withDefault(3);
    }
    if (!RELAY_TUNING.contains(setting)) {
      return setting;
    }
    List<Setting<?>> declared = mode == Mode.CDC ? CdcSettings.ALL : PollingSettings.ALL;
    return (Setting<T>)
        declared.stream().filter(s -> s.key().equals(setting.key())).findFirst().orElse(setting);
  }

  private static boolean validTable(String name) {
    try {
      OutboxTable.builder().name(name).build();
      return true;
    } catch (OutboxException e) {
      return false;
    }
  }
}
