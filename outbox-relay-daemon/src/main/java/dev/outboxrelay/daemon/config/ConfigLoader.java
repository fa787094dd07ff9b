package dev.outboxrelay.daemon.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.daemon.config.DaemonConfig.HttpConfig;
import dev.outboxrelay.daemon.config.RelayConfig.DatabaseConfig;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import dev.outboxrelay.daemon.config.RelayConfig.PublisherConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads the YAML config, applies {@code OUTBOX_*} environment overrides and validates every value.
 * Errors are {@link OutboxConfigException}s naming the key (as a path such as {@code
 * relays[0].batch-size}) and the bad value; values of secret-looking keys are masked.
 *
 * <p>Environment overrides: {@code OUTBOX_} followed by the path with each segment upper-cased,
 * {@code .} and {@code -} written as {@code _}, list positions as numbers: {@code
 * OUTBOX_RELAYS_0_DATABASE_PASSWORD}, {@code OUTBOX_HTTP_PORT}, {@code
 * OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_BOOTSTRAP_SERVERS}. Under the free-form maps ({@code
 * publisher.settings}, {@code debezium}) a key not in the file is spelled lower-case with dots.
 */
public final class ConfigLoader {
  public static final String ENV_PREFIX = "OUTBOX_";

  private static final Pattern RELAY_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
  private static final Set<String> ROOT_KEYS = Set.of("http", "startup-timeout", "relays");
  private static final Set<String> HTTP_KEYS = Set.of("host", "port", "token");
  private static final Set<String> RELAY_KEYS =
      Set.of(
          "name",
          "mode",
          "database",
          "table",
          "create-schema",
          "batch-size",
          "in-flight-batches",
          "poll-interval",
          "lease-duration",
          "strict-order",
          "listen-notify",
          "publish-timeout",
          "backoff-initial",
          "backoff-max",
          "retention",
          "debezium",
          "publisher");
  private static final Set<String> DATABASE_KEYS =
      Set.of("url", "username", "password", "pool-size");
  private static final Set<String> PUBLISHER_KEYS = Set.of("type", "settings");
  private static final Set<String> FREE_FORM = Set.of("settings", "debezium");

  /** Environment variables of the daemon that are not config overrides (read by logback.xml). */
  public static final Set<String> RESERVED_ENV =
      Set.of("OUTBOX_LOG_LEVEL", "OUTBOX_KAFKA_LOG_LEVEL", "OUTBOX_DEBEZIUM_LOG_LEVEL");

  private ConfigLoader() {}

  /** Loads a config file with the process environment applied. */
  public static DaemonConfig load(Path file) {
    return load(file, System.getenv());
  }

  /** Loads a config file with the given environment applied. */
  public static DaemonConfig load(Path file, Map<String, String> env) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new OutboxConfigException("--config", file, "must be a readable file (" + e + ")");
    }
    return parse(text, env, file.toString());
  }

  /** Parses YAML text with the given environment applied. */
  public static DaemonConfig parse(String yaml, Map<String, String> env) {
    return parse(yaml, env, "config");
  }

  /**
   * Parses YAML text with the given environment applied; errors name {@code source} with the line
   * and column of the offending key, or the environment variable that set it.
   */
  static DaemonConfig parse(String yaml, Map<String, String> env, String source) {
    YamlSource text = YamlSource.read(yaml, source);
    ObjectNode root = root(text.tree());
    applyOverrides(root, env);
    try {
      return bind(root);
    } catch (OutboxConfigException e) {
      throw text.locate(e, env);
    }
  }

  private static ObjectNode root(JsonNode node) {
    if (node == null || node.isMissingNode() || node.isNull()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (!node.isObject()) {
      throw new OutboxConfigException("config", node.getNodeType(), "must be a YAML mapping");
    }
    return (ObjectNode) node;
  }

  // ---- environment overrides ---------------------------------------------------------------

  static void applyOverrides(ObjectNode root, Map<String, String> env) {
    new TreeMap<>(env)
        .forEach(
            (name, value) -> {
              if (name.startsWith(ENV_PREFIX)
                  && name.length() > ENV_PREFIX.length()
                  && !RESERVED_ENV.contains(name)) {
                List<String> tokens =
                    List.of(
                        name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).split("_"));
                set(root, ROOT_KEYS, tokens, value, name);
              }
            });
  }

  private static void set(
      ObjectNode node, Set<String> known, List<String> tokens, String value, String envName) {
    Set<String> candidates = new HashSet<>(known);
    node.fieldNames().forEachRemaining(candidates::add);
    // The longest key whose env spelling matches a prefix of the remaining tokens.
    String best = null;
    int bestLength = 0;
    for (String key : candidates) {
      List<String> keyTokens = List.of(envSpelling(key).split("_"));
      if (keyTokens.size() <= tokens.size()
          && tokens.subList(0, keyTokens.size()).equals(keyTokens)
          && keyTokens.size() > bestLength) {
        best = key;
        bestLength = keyTokens.size();
      }
    }
    if (best == null) {
      // Never the value: an unknown variable may be a misspelled secret.
      String rest = String.join("_", tokens);
      String named = envName.substring(0, envName.length() - rest.length());
      Map<String, String> spelled = new TreeMap<>();
      candidates.forEach(k -> spelled.put(envSpelling(k), k));
      String hint =
          Suggest.closest(rest, spelled.keySet())
              .map(k -> "; did you mean " + (named + k).toUpperCase(Locale.ROOT) + "?")
              .orElse("");
      throw new OutboxConfigException(
          envName,
          "does not name a config key"
              + hint
              + " (known here: "
              + new java.util.TreeSet<>(candidates)
              + ")");
    }
    List<String> rest = tokens.subList(bestLength, tokens.size());
    if (rest.isEmpty()) {
      node.set(best, TextNode.valueOf(value));
      return;
    }
    if (best.equals("relays")) {
      ArrayNode list =
          node.has(best) && node.get(best).isArray()
              ? (ArrayNode) node.get(best)
              : node.putArray(best);
      int index;
      try {
        index = Integer.parseInt(rest.get(0));
      } catch (NumberFormatException e) {
        throw new OutboxConfigException(envName, "must give the relay's position after RELAYS_");
      }
      while (list.size() <= index) {
        list.addObject();
      }
      if (rest.size() == 1 || !list.get(index).isObject()) {
        throw new OutboxConfigException(envName, "must name a key of the relay");
      }
      set((ObjectNode) list.get(index), RELAY_KEYS, rest.subList(1, rest.size()), value, envName);
      return;
    }
    ObjectNode child =
        node.has(best) && node.get(best).isObject()
            ? (ObjectNode) node.get(best)
            : node.putObject(best);
    if (FREE_FORM.contains(best)) {
      String joined = String.join("_", rest);
      String existing = null;
      for (Iterator<String> it = child.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (envSpelling(key).equals(joined)) {
          existing = key;
        }
      }
      child.set(existing != null ? existing : String.join(".", rest), TextNode.valueOf(value));
      return;
    }
    Set<String> childKeys =
        switch (best) {
          case "http" -> HTTP_KEYS;
          case "database" -> DATABASE_KEYS;
          case "publisher" -> PUBLISHER_KEYS;
          default -> Set.of();
        };
    set(child, childKeys, rest, value, envName);
  }

  private static String envSpelling(String key) {
    return key.toLowerCase(Locale.ROOT).replace('-', '_').replace('.', '_');
  }

  // ---- binding and validation --------------------------------------------------------------

  private static DaemonConfig bind(ObjectNode root) {
    Node r = new Node("", root);
    r.onlyKeys(ROOT_KEYS);
    Node http = r.object("http");
    HttpConfig httpConfig =
        new HttpConfig(
            http.text("host", "127.0.0.1"),
            http.integer("port", 8080, 0, 65535),
            bearerToken(http.text("token", null)));
    http.onlyKeys(HTTP_KEYS);
    Duration startupTimeout = r.duration("startup-timeout", DaemonConfig.DEFAULT_STARTUP_TIMEOUT);
    JsonNode relays = root.get("relays");
    if (relays == null || !relays.isArray() || relays.isEmpty()) {
      throw new OutboxConfigException(
          "relays", relays == null ? null : relays.getNodeType(), "must list at least one relay");
    }
    List<RelayConfig> list = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < relays.size(); i++) {
      String path = "relays[" + i + "]";
      if (!relays.get(i).isObject()) {
        throw new OutboxConfigException(path, relays.get(i).getNodeType(), "must be a mapping");
      }
      RelayConfig relay = relay(new Node(path, (ObjectNode) relays.get(i)));
      if (!names.add(relay.name())) {
        throw new OutboxConfigException(path + ".name", relay.name(), "must be unique");
      }
      list.add(relay);
    }
    return new DaemonConfig(httpConfig, startupTimeout, list);
  }

  private static Optional<String> bearerToken(String token) {
    if (token == null || token.isEmpty()) {
      return Optional.empty();
    }
    if (token.length() < 16 || !token.chars().allMatch(c -> c > 32 && c < 127)) {
      throw new OutboxConfigException(
          "http.token", token, "must be at least 16 printable characters without spaces");
    }
    return Optional.of(token);
  }

  private static RelayConfig relay(Node n) {
    n.onlyKeys(RELAY_KEYS);
    String name = n.required("name");
    if (!RELAY_NAME.matcher(name).matches()) {
      throw new OutboxConfigException(
          n.key("name"), name, "must be 1 to 64 letters, digits, '_', '.' or '-'");
    }
    Mode mode = n.choice("mode", "polling", Mode.class);
    Node db = n.object("database");
    db.onlyKeys(DATABASE_KEYS);
    String url = db.required("url");
    if (!url.startsWith("jdbc:postgresql:")
        && !url.startsWith("jdbc:mariadb:")
        && !url.startsWith("jdbc:mysql:")) {
      throw new OutboxConfigException(
          db.key("url"), url, "must be a jdbc:postgresql:, jdbc:mariadb: or jdbc:mysql: URL");
    }
    DatabaseConfig database =
        new DatabaseConfig(
            url,
            db.text("username", null),
            db.text("password", null),
            db.integer("pool-size", mode == Mode.CDC ? 3 : 4, 1, 100));
    if (mode == Mode.CDC && (database.username() == null || database.username().isBlank())) {
      // Debezium's connectors need a user name; without one they fail with a bare NPE.
      throw new OutboxConfigException(
          db.key("username"),
          database.username(),
          "is required in cdc mode (Debezium connects as this user)");
    }
    String tableName = n.text("table", "outbox");
    OutboxTable table;
    try {
      table = OutboxTable.builder().name(tableName).build();
    } catch (OutboxException e) {
      throw new OutboxConfigException(n.key("table"), tableName, "must be a valid identifier");
    }
    boolean postgres = url.startsWith("jdbc:postgresql:");
    boolean strictOrder = n.bool("strict-order", false);
    if (strictOrder && (!postgres || mode != Mode.POLLING)) {
      throw new OutboxConfigException(
          n.key("strict-order"), true, "is for the polling relay on PostgreSQL only");
    }
    Duration backoffInitial = n.duration("backoff-initial", Duration.ofMillis(100));
    Duration backoffMax = n.duration("backoff-max", Duration.ofSeconds(30));
    if (backoffMax.compareTo(backoffInitial) < 0) {
      throw new OutboxConfigException(
          n.key("backoff-max"), backoffMax, "must be at least backoff-initial " + backoffInitial);
    }
    String retention = n.text("retention", "delete");
    Optional<Duration> keep;
    if (retention.equals("delete")) {
      keep = Optional.empty();
    } else if (retention.startsWith("keep:")) {
      keep = Optional.of(parseDuration(n.key("retention"), retention.substring(5)));
    } else {
      throw new OutboxConfigException(
          n.key("retention"), retention, "must be delete or keep:<duration>, e.g. keep:1h");
    }
    Map<String, String> debezium = n.stringMap("debezium");
    if (!debezium.isEmpty() && mode != Mode.CDC) {
      throw new OutboxConfigException(n.key("debezium"), debezium.keySet(), "is for mode cdc only");
    }
    Node pub = n.object("publisher");
    pub.onlyKeys(PUBLISHER_KEYS);
    PublisherConfig publisher =
        new PublisherConfig(pub.required("type"), pub.stringMap("settings"));
    return new RelayConfig(
        name,
        mode,
        database,
        table,
        n.bool("create-schema", false),
        n.integer("batch-size", 500, 1, 10_000),
        n.integer("in-flight-batches", 2, 1, 8),
        n.duration(
            "poll-interval", mode == Mode.CDC ? Duration.ofMillis(20) : Duration.ofMillis(200)),
        n.duration("lease-duration", Duration.ofSeconds(10)),
        strictOrder,
        n.bool("listen-notify", postgres),
        n.duration("publish-timeout", Duration.ofSeconds(30)),
        backoffInitial,
        backoffMax,
        keep,
        debezium,
        publisher);
  }

  /**
   * A duration such as {@code 200ms}, {@code 5s}, {@code 1m}, {@code 1h}, {@code 2d} or ISO-8601
   * {@code PT5S}; positive.
   */
  public static Duration parseDuration(String key, String text) {
    String t = text.trim();
    Duration d = null;
    var m = DURATION.matcher(t);
    if (m.matches()) {
      long v = Long.parseLong(m.group(1));
      d =
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(v);
            case "s" -> Duration.ofSeconds(v);
            case "m" -> Duration.ofMinutes(v);
            case "h" -> Duration.ofHours(v);
            default -> Duration.ofDays(v);
          };
    } else if (t.startsWith("P") || t.startsWith("p")) {
      try {
        d = Duration.parse(t.toUpperCase(Locale.ROOT));
      } catch (java.time.format.DateTimeParseException e) {
        d = null;
      }
    }
    if (d == null || d.isZero() || d.isNegative()) {
      throw new OutboxConfigException(
          key, text, "must be a positive duration such as 200ms, 5s, 1m, 1h, 2d or PT5S");
    }
    return d;
  }

  /** A mapping in the tree with the path used in error messages. */
  private record Node(String path, ObjectNode node) {

    String key(String name) {
      return path.isEmpty() ? name : path + "." + name;
    }

    void onlyKeys(Set<String> allowed) {
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String k = it.next();
        if (!allowed.contains(k)) {
          // Never the value: an unknown key may be a misspelled secret ('pasword').
          throw new OutboxConfigException(
              key(k),
              "is not a known key"
                  + Suggest.didYouMean(k, allowed)
                  + " (known: "
                  + new java.util.TreeSet<>(allowed)
                  + ")");
        }
      }
    }

    Node object(String name) {
      JsonNode v = node.get(name);
      if (v == null || v.isNull()) {
        return new Node(key(name), JsonNodeFactory.instance.objectNode());
      }
      if (!v.isObject()) {
        throw new OutboxConfigException(key(name), scalar(v), "must be a mapping");
      }
      return new Node(key(name), (ObjectNode) v);
    }

    String text(String name, String fallback) {
      JsonNode v = node.get(name);
      if (v == null || v.isNull()) {
        return fallback;
      }
      if (!v.isValueNode()) {
        throw new OutboxConfigException(key(name), v.getNodeType(), "must be a single value");
      }
      return v.asText();
    }

    String required(String name) {
      String v = text(name, null);
      if (v == null || v.isBlank()) {
        throw new OutboxConfigException(key(name), v, "is required");
      }
      return v.trim();
    }

    int integer(String name, int fallback, int min, int max) {
      String v = text(name, null);
      if (v == null) {
        return fallback;
      }
      try {
        int i = Integer.parseInt(v.trim());
        if (i >= min && i <= max) {
          return i;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new OutboxConfigException(
          key(name), v, "must be a whole number from " + min + " to " + max);
    }

    boolean bool(String name, boolean fallback) {
      String v = text(name, null);
      if (v == null) {
        return fallback;
      }
      return switch (v.trim().toLowerCase(Locale.ROOT)) {
        case "true", "yes", "on" -> true;
        case "false", "no", "off" -> false;
        default -> throw new OutboxConfigException(key(name), v, "must be true or false");
      };
    }

    Duration duration(String name, Duration fallback) {
      String v = text(name, null);
      return v == null ? fallback : parseDuration(key(name), v);
    }

    <E extends Enum<E>> E choice(String name, String fallback, Class<E> type) {
      String v = text(name, fallback);
      try {
        return Enum.valueOf(type, v.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new OutboxConfigException(
            key(name),
            v,
            "must be one of "
                + java.util.Arrays.stream(type.getEnumConstants())
                    .map(c -> c.name().toLowerCase(Locale.ROOT))
                    .toList());
      }
    }

    Map<String, String> stringMap(String name) {
      Node m = object(name);
      Map<String, String> out = new LinkedHashMap<>();
      m.node
          .fields()
          .forEachRemaining(
              e -> {
                if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                  throw new OutboxConfigException(
                      m.key(e.getKey()), e.getValue().getNodeType(), "must be a single value");
                }
                out.put(e.getKey(), e.getValue().asText());
              });
      return out;
    }

    private static Object scalar(JsonNode v) {
      return v == null ? null : v.isValueNode() ? v.asText() : v.getNodeType();
    }
  }
}
