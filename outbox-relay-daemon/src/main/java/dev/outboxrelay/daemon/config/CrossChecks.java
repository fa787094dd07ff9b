package dev.outboxrelay.daemon.config;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import dev.outboxrelay.relay.cdc.CdcSettings;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The rules between settings, checked once each value is valid on its own. */
final class CrossChecks {
  private CrossChecks() {}

  static void relay(ConfigNode n, RelayConfig r) {
    boolean cdc = r.mode() == Mode.CDC;
    if (cdc) {
      // The relay's name is the CDC engine's: slot, publication and offsets key.
      CdcSettings.NAME.check(n.key("name"), r.name());
    }
    String user = r.database().username();
    if (cdc && (user == null || user.isBlank())) {
      // Debezium's connectors need a user name; without one they fail with a bare NPE.
      throw new OutboxConfigException(
          n.key("database.username"),
          user,
          "is required in cdc mode (Debezium connects as this user)");
    }
    if (r.strictOrder() && (!r.database().url().startsWith("jdbc:postgresql:") || cdc)) {
      throw new OutboxConfigException(
          n.key("strict-order"), true, "is for the polling relay on PostgreSQL only");
    }
    if (r.backoffMax().compareTo(r.backoffInitial()) < 0) {
      throw new OutboxConfigException(
          n.key("backoff-max"),
          r.backoffMax(),
          "must be at least backoff-initial " + r.backoffInitial());
    }
    if (!r.debezium().isEmpty() && !cdc) {
      throw new OutboxConfigException(
          n.key("debezium"), r.debezium().keySet(), "is for mode cdc only");
    }
  }

  static void uniqueNames(List<RelayConfig> relays) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < relays.size(); i++) {
      if (!names.add(relays.get(i).name())) {
        throw new OutboxConfigException(
            "relays[" + i + "].name", relays.get(i).name(), "must be unique");
      }
    }
  }
}
