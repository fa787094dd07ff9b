package dev.outboxrelay.daemon.config;

import static dev.outboxrelay.daemon.config.DaemonSettings.of;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.daemon.config.DaemonConfig.HttpConfig;
import dev.outboxrelay.daemon.config.RelayConfig.DatabaseConfig;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import dev.outboxrelay.daemon.config.RelayConfig.PublisherConfig;
import dev.outboxrelay.daemon.config.RelayConfig.ReconcileConfig;
import dev.outboxrelay.relay.polling.PollingSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Binds the tree (file plus environment) to a {@link DaemonConfig}: every value is read, parsed and
 * checked through its declaration in {@link DaemonSettings}; defaults come from there too. Rules
 * between settings are {@link CrossChecks}'.
 */
final class ConfigBinder {
  private ConfigBinder() {}

  static DaemonConfig bind(ObjectNode root) {
    ConfigNode r = ConfigNode.root(root);
    r.onlyKeys(ConfigKeys.ROOT);
    ConfigNode http = r.object("http");
    http.onlyKeys(ConfigKeys.HTTP);
    String token = http.text(DaemonSettings.HTTP_TOKEN.key());
    HttpConfig httpConfig =
        new HttpConfig(
            http.value(DaemonSettings.HTTP_HOST),
            http.value(DaemonSettings.HTTP_PORT),
            token == null || token.isEmpty()
                ? Optional.empty()
                : Optional.of(DaemonSettings.HTTP_TOKEN.check(http.key("token"), token)));
    Duration startupTimeout = r.value(DaemonSettings.STARTUP_TIMEOUT);
    JsonNode relays = root.get("relays");
    if (relays == null || !relays.isArray() || relays.isEmpty()) {
      throw new OutboxConfigException(
          "relays", relays == null ? null : relays.getNodeType(), "must list at least one relay");
    }
    List<RelayConfig> list = new ArrayList<>();
    for (int i = 0; i < relays.size(); i++) {
      String path = "relays[" + i + "]";
      if (!relays.get(i).isObject()) {
        throw new OutboxConfigException(path, relays.get(i).getNodeType(), "must be a mapping");
      }
      ConfigNode n = new ConfigNode(path, (ObjectNode) relays.get(i));
      RelayConfig relay = relay(n);
      CrossChecks.relay(n, relay);
      list.add(relay);
    }
    CrossChecks.uniqueNames(list);
    return new DaemonConfig(httpConfig, startupTimeout, list);
  }

  private static RelayConfig relay(ConfigNode n) {
    n.onlyKeys(ConfigKeys.RELAY);
    String name = n.required(DaemonSettings.NAME);
    Mode mode = Mode.valueOf(n.value(DaemonSettings.MODE).trim().toUpperCase(Locale.ROOT));
    ConfigNode db = n.object("database");
    db.onlyKeys(ConfigKeys.DATABASE);
    DatabaseConfig database =
        new DatabaseConfig(
            db.required(DaemonSettings.DATABASE_URL),
            db.value(DaemonSettings.DATABASE_USERNAME),
            db.value(DaemonSettings.DATABASE_PASSWORD),
            db.value(of(DaemonSettings.POOL_SIZE, mode)));
    boolean postgres = database.url().startsWith("jdbc:postgresql:");
    ConfigNode pub = n.object("publisher");
    pub.onlyKeys(ConfigKeys.PUBLISHER);
    String type = pub.text("type");
    if (type == null || type.isBlank()) {
      throw new OutboxConfigException(pub.key("type"), type, "is required");
    }
    return new RelayConfig(
        name,
        mode,
        database,
        OutboxTable.builder().name(n.value(DaemonSettings.TABLE)).build(),
        n.value(DaemonSettings.CREATE_SCHEMA),
        n.value(of(PollingSettings.BATCH_SIZE, mode)),
        n.value(of(PollingSettings.IN_FLIGHT_BATCHES, mode)),
        n.value(of(PollingSettings.POLL_INTERVAL, mode)),
        n.value(of(PollingSettings.LEASE_DURATION, mode)),
        n.value(of(PollingSettings.STRICT_ORDER, mode)),
        n.text(PollingSettings.LISTEN_NOTIFY.key()) == null
            ? postgres && PollingSettings.LISTEN_NOTIFY.defaultValue()
            : n.value(PollingSettings.LISTEN_NOTIFY),
        n.value(of(PollingSettings.PUBLISH_TIMEOUT, mode)),
        n.value(of(PollingSettings.BACKOFF_INITIAL, mode)),
        n.value(of(PollingSettings.BACKOFF_MAX, mode)),
        retention(n),
        n.stringMap("debezium"),
        new PublisherConfig(
            type.trim(),
            pub.stringMap("settings"),
            Optional.ofNullable(pub.value(DaemonSettings.DEAD_LETTER_TOPIC))),
        reconcile(n.object("reconcile")));
  }

  private static ReconcileConfig reconcile(ConfigNode n) {
    n.onlyKeys(ConfigKeys.RECONCILE);
    return new ReconcileConfig(
        n.value(DaemonSettings.RECONCILE_ENABLED),
        n.value(DaemonSettings.RECONCILE_INTERVAL),
        n.value(DaemonSettings.RECONCILE_WINDOW),
        n.value(DaemonSettings.RECONCILE_LAG),
        n.value(DaemonSettings.RECONCILE_REPUBLISH));
  }

  private static Optional<Duration> retention(ConfigNode n) {
    String retention = n.value(DaemonSettings.RETENTION);
    return retention.equals("delete")
        ? Optional.empty()
        : Optional.of(ConfigLoader.parseDuration(n.key("retention"), retention.substring(5)));
  }
}
