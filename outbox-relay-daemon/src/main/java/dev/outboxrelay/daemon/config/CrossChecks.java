package dev.outboxrelay.daemon.config;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import dev.outboxrelay.relay.cdc.CdcSettings;
import java.time.Duration;
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
    reconcile(n, r);
  }

  /**
   * The loop compares rows kept after publication with the broker: with {@code delete} there is
   * nothing to compare, and a window reaching past what {@code keep:} keeps would look at rows
   * already purged (not missing, simply unseen). An interval longer than the window leaves rows no
   * run ever checks. Only the brokers it can read are allowed.
   */
  private static void reconcile(ConfigNode n, RelayConfig r) {
    RelayConfig.ReconcileConfig c = r.reconcile();
    if (!c.enabled()) {
      return;
    }
    if (r.keepPublishedFor().isEmpty()) {
      throw new OutboxConfigException(
          n.key("retention"),
          "delete",
          "must be keep:<duration> when reconcile.enabled is true (with delete a row is deleted"
              + " once the broker acknowledged it, leaving nothing to compare with the broker)");
    }
    Duration keep = r.keepPublishedFor().get();
    if (c.window().plus(c.lag()).compareTo(keep) > 0) {
      throw new OutboxConfigException(
          n.key("reconcile.window"),
          c.window(),
          "plus reconcile.lag "
              + c.lag()
              + " must not exceed the retention keep:"
              + keep
              + " (older rows are purged and could not be checked)");
    }
    if (c.interval().compareTo(c.window()) > 0) {
      throw new OutboxConfigException(
          n.key("reconcile.interval"),
          c.interval(),
          "must not exceed reconcile.window "
              + c.window()
              + " (rows between runs would go unchecked)");
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
