package dev.outboxrelay.daemon.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outboxrelay.core.Durations;
import dev.outboxrelay.core.OutboxConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Reads the YAML config, applies {@code OUTBOX_*} environment overrides and validates every value:
 * {@link YamlSource} parses, {@link EnvOverrides} applies the environment, {@link ConfigBinder}
 * binds through the declarations in {@link DaemonSettings} and {@link CrossChecks} checks the rules
 * between settings. Errors are {@link OutboxConfigException}s naming the key (as a path such as
 * {@code relays[0].batch-size}) and the bad value; values of secret-looking keys are masked.
 *
 * <p>Environment overrides: {@code OUTBOX_} followed by the path with each segment upper-cased,
 * {@code .} and {@code -} written as {@code _}, list positions as numbers: {@code
 * OUTBOX_RELAYS_0_DATABASE_PASSWORD}, {@code OUTBOX_HTTP_PORT}, {@code
 * OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_BOOTSTRAP_SERVERS}. Under the free-form maps ({@code
 * publisher.settings}, {@code debezium}) a key not in the file is spelled lower-case with dots.
 */
public final class ConfigLoader {
  public static final String ENV_PREFIX = "OUTBOX_";

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
    EnvOverrides.apply(root, env);
    try {
      return ConfigBinder.bind(root);
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

  /**
   * A duration such as {@code 200ms}, {@code 5s}, {@code 1m}, {@code 1h}, {@code 2d} or ISO-8601
   * {@code PT5S}; positive.
   */
  public static Duration parseDuration(String key, String text) {
    Duration d = Durations.parse(text);
    if (d == null || d.isZero() || d.isNegative()) {
      throw new OutboxConfigException(
          key, text, "must be a positive duration such as 200ms, 5s, 1m, 1h, 2d or PT5S");
    }
    return d;
  }
}
