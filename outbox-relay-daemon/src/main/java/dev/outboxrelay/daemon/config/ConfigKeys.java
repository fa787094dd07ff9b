package dev.outboxrelay.daemon.config;

import dev.outboxrelay.core.Setting;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** The keys each mapping of the config file accepts, from the declarations in DaemonSettings. */
final class ConfigKeys {
  static final Set<String> ROOT = keys(List.of(DaemonSettings.STARTUP_TIMEOUT), "http", "relays");
  static final Set<String> HTTP = keys(DaemonSettings.HTTP);
  static final Set<String> RELAY =
      keys(
          Stream.concat(DaemonSettings.RELAY.stream(), DaemonSettings.RELAY_TUNING.stream())
              .toList(),
          "database",
          "debezium",
          "publisher",
          "reconcile");
  static final Set<String> DATABASE = keys(DaemonSettings.DATABASE);
  static final Set<String> PUBLISHER = keys(DaemonSettings.PUBLISHER, "type", "settings");
  static final Set<String> RECONCILE = keys(DaemonSettings.RECONCILE);

  /** Mappings whose keys are passed through (client and Debezium settings). */
  static final Set<String> FREE_FORM = Set.of("settings", "debezium");

  private ConfigKeys() {}

  /** The keys of the mapping named {@code key} ({@code http}, {@code database}, ...). */
  static Set<String> under(String key) {
    return switch (key) {
      case "http" -> HTTP;
      case "database" -> DATABASE;
      case "publisher" -> PUBLISHER;
      case "reconcile" -> RECONCILE;
      default -> Set.of();
    };
  }

  private static Set<String> keys(List<Setting<?>> settings, String... more) {
    Set<String> out = new TreeSet<>(List.of(more));
    settings.forEach(s -> out.add(s.key()));
    return Set.copyOf(out);
  }
}
