package dev.outboxrelay.daemon.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.outboxrelay.core.Setting;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import dev.outboxrelay.testing.SettingsTable;
import dev.outboxrelay.testing.SettingsTable.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The README's config table and the declarations ({@link DaemonSettings}, with the relays' own)
 * agree: every declared setting is documented with its declared default (the CDC default too, where
 * it differs), every documented key is declared, and every documented key is accepted by the
 * loader, in the file and as an {@code OUTBOX_*} variable, both spellings giving the same config.
 * The table is parsed, so a key documented but not accepted (as {@code in-flight-batches} once
 * was), or a default documented as another (poll-interval 200ms against the relay's 250ms, as once)
 * fails here.
 */
class DocumentedKeysTest {
  private static final Pattern ROW = Pattern.compile("^\\| ((?:`[^`]+`(?: / )?)+) \\|");
  private static final Pattern KEY = Pattern.compile("`([^`]+)`");
  private static final Pattern CDC_DEFAULT = Pattern.compile("\\(cdc: ([^)]+)\\)");

  /** A valid non-default value per documented key; a new documented key needs one here. */
  private static final Map<String, Object> SAMPLES =
      Map.ofEntries(
          Map.entry("http.host", "0.0.0.0"),
          Map.entry("http.token", "a-bearer-token-of-24-chars"),
          Map.entry("startup-timeout", "2m"),
          Map.entry("http.port", "9090"),
          Map.entry("relays[].name", "payments"),
          Map.entry("relays[].mode", "cdc"),
          Map.entry("relays[].database.url", "jdbc:postgresql://db:5432/other"),
          Map.entry("relays[].database.username", "relay"),
          Map.entry("relays[].database.password", "other-secret"),
          Map.entry("relays[].database.pool-size", "7"),
          Map.entry("relays[].table", "events"),
          Map.entry("relays[].create-schema", "true"),
          Map.entry("relays[].batch-size", "100"),
          Map.entry("relays[].in-flight-batches", "4"),
          Map.entry("relays[].poll-interval", "1s"),
          Map.entry("relays[].lease-duration", "5s"),
          Map.entry("relays[].strict-order", "true"),
          Map.entry("relays[].listen-notify", "false"),
          Map.entry("relays[].publish-timeout", "10s"),
          Map.entry("relays[].backoff-initial", "50ms"),
          Map.entry("relays[].backoff-max", "1m"),
          Map.entry("relays[].retention", "keep:1h"),
          Map.entry("relays[].reconcile.enabled", "true"),
          Map.entry("relays[].reconcile.interval", "1m"),
          Map.entry("relays[].reconcile.window", "10m"),
          Map.entry("relays[].reconcile.lag", "30s"),
          Map.entry("relays[].reconcile.republish", "true"),
          Map.entry("relays[].debezium", Map.of("snapshot.mode", "initial")),
          Map.entry("relays[].publisher.type", "rocketmq"),
          Map.entry("relays[].publisher.settings", Map.of("max.request.size", "2048")),
          Map.entry("relays[].publisher.dead-letter-topic", "orders.dead-letters"));

  /** Keys valid only with another setting: debezium settings are for CDC relays. */
  private static final Map<String, Map<String, String>> NEEDS =
      Map.of(
          "relays[].debezium",
          Map.of("relays[].mode", "cdc"),
          "relays[].reconcile.enabled",
          Map.of("relays[].retention", "keep:1h"));

  static List<String> documentedKeys() throws Exception {
    List<String> keys = new ArrayList<>();
    String config = Files.readString(Path.of("README.md")).split("\n## Config\n", 2)[1];
    for (String line : config.split("\n## ", 2)[0].split("\n")) {
      Matcher row = ROW.matcher(line);
      if (!row.find() || row.group(1).equals("`key`")) {
        continue;
      }
      Matcher k = KEY.matcher(row.group(1));
      String first = null;
      while (k.find()) {
        // "`relays[].backoff-initial` / `backoff-max`": a bare name shares the first's parent.
        String key =
            first == null || k.group(1).contains(".")
                ? k.group(1)
                : first.substring(0, first.lastIndexOf('.') + 1) + k.group(1);
        first = first == null ? key : first;
        keys.add(key);
      }
    }
    assertThat(keys).as("keys parsed from the README's config table").hasSizeGreaterThan(15);
    return keys;
  }

  /** Documented keys that are mappings, not single settings. */
  private static final Set<String> STRUCTURE =
      Set.of("relays[].debezium", "relays[].publisher.type", "relays[].publisher.settings");

  /** Each declaration under the name the README gives it. */
  static Map<String, Setting<?>> declared() {
    Map<String, Setting<?>> out = new TreeMap<>();
    out.put(DaemonSettings.STARTUP_TIMEOUT.key(), DaemonSettings.STARTUP_TIMEOUT);
    DaemonSettings.HTTP.forEach(s -> out.put("http." + s.key(), s));
    DaemonSettings.RELAY.forEach(s -> out.put("relays[]." + s.key(), s));
    DaemonSettings.RELAY_TUNING.forEach(s -> out.put("relays[]." + s.key(), s));
    DaemonSettings.DATABASE.forEach(s -> out.put("relays[].database." + s.key(), s));
    DaemonSettings.RECONCILE.forEach(s -> out.put("relays[].reconcile." + s.key(), s));
    DaemonSettings.PUBLISHER.forEach(s -> out.put("relays[].publisher." + s.key(), s));
    return out;
  }

  @Test
  void everyDeclaredSettingIsDocumentedWithItsDefaultAndNothingElseIs() throws Exception {
    List<Row> rows = SettingsTable.read(Path.of("README.md"), "## Config");
    Map<String, Setting<?>> declared = declared();
    Map<Setting<?>, String> names = new HashMap<>();
    declared.forEach((name, s) -> names.put(s, name));
    SettingsTable.check(rows, List.copyOf(declared.values()), names::get);

    Set<String> documented = new TreeSet<>(documentedKeys());
    documented.removeAll(STRUCTURE);
    assertThat(documented).as("documented keys").isEqualTo(declared.keySet());
  }

  @Test
  void whereCdcRelaysDefaultOtherwiseTheTableSaysSo() {
    List<Row> rows = SettingsTable.read(Path.of("README.md"), "## Config");
    declared()
        .forEach(
            (name, s) -> {
              Setting<?> cdc = DaemonSettings.of(s, Mode.CDC);
              if (!Objects.equals(cdc.defaultValue(), s.defaultValue())) {
                String cell = SettingsTable.defaultOf(rows, name);
                Matcher m = CDC_DEFAULT.matcher(cell);
                assertThat(m.find()).as("%s documents its cdc default: %s", name, cell).isTrue();
                assertThat(SettingsTable.value(cdc, m.group(1)))
                    .as("%s cdc default in '%s'", name, cell)
                    .isEqualTo(cdc.defaultValue());
              }
            });
  }

  @ParameterizedTest
  @MethodSource("documentedKeys")
  void everyDocumentedKeyIsAcceptedInTheFileAndTheEnvironment(String key) throws Exception {
    assertThat(SAMPLES).as("a sample value for the documented key " + key).containsKey(key);
    Map<String, Object> settings = new LinkedHashMap<>(NEEDS.getOrDefault(key, Map.of()));
    settings.put(key, SAMPLES.get(key));

    Map<String, Object> file = base();
    Map<String, String> env = new LinkedHashMap<>();
    settings.forEach(
        (k, v) -> {
          put(file, k, v);
          env.putAll(envSpelling(k, v));
        });
    DaemonConfig fromFile = ConfigLoader.parse(yaml(file), Map.of());
    DaemonConfig fromEnv = ConfigLoader.parse(yaml(base()), env);
    DaemonConfig defaults = ConfigLoader.parse(yaml(base()), Map.of());

    assertThat(fromEnv).as("%s from %s", key, env).isEqualTo(fromFile);
    assertThat(fromFile).as("%s changes the config", key).isNotEqualTo(defaults);
  }

  private static Map<String, Object> base() {
    Map<String, Object> relay = new LinkedHashMap<>();
    relay.put("name", "orders");
    relay.put(
        "database",
        new LinkedHashMap<>(
            Map.of(
                "url", "jdbc:postgresql://127.0.0.1:5432/app",
                "username", "app",
                "password", "s3cret")));
    relay.put(
        "publisher",
        new LinkedHashMap<>(
            Map.of(
                "type",
                "kafka",
                "settings",
                new LinkedHashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092")))));
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("relays", new ArrayList<>(List.of(relay)));
    return root;
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> root, String key, Object value) {
    String[] path = key.split("\\.");
    Map<String, Object> node = root;
    for (int i = 0; i < path.length - 1; i++) {
      node =
          path[i].equals("relays[]")
              ? ((List<Map<String, Object>>) node.get("relays")).get(0)
              : (Map<String, Object>) node.computeIfAbsent(path[i], p -> new LinkedHashMap<>());
    }
    String leaf = path[path.length - 1];
    if (value instanceof Map<?, ?> entries && node.get(leaf) instanceof Map<?, ?> existing) {
      ((Map<Object, Object>) existing).putAll(entries); // as an env variable adds an entry
    } else {
      node.put(leaf, value);
    }
  }

  /** {@code relays[].database.pool-size} → {@code OUTBOX_RELAYS_0_DATABASE_POOL_SIZE}. */
  private static Map<String, String> envSpelling(String key, Object value) {
    String name = "OUTBOX_" + key.replace("[]", ".0").replaceAll("[.-]", "_");
    if (value instanceof Map<?, ?> entries) {
      Map<String, String> env = new LinkedHashMap<>();
      entries.forEach((k, v) -> env.putAll(envSpelling(key + "." + k, v)));
      return env;
    }
    return Map.of(name.toUpperCase(Locale.ROOT), String.valueOf(value));
  }

  private static String yaml(Map<String, Object> tree) throws Exception {
    return new ObjectMapper(new YAMLFactory()).writeValueAsString(tree);
  }
}
