package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Backlog, oldest pending age, parked keys and lease owners of every relay in a config file. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Show backlog, oldest pending age, parked keys and lease owners per relay.")
final class StatusCommand implements Callable<Integer> {
  @Mixin ConfigOption config;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws SQLException {
    DaemonConfig cfg = config.load();
    PrintWriter out = spec.commandLine().getOut();
    if (config.relay != null) {
      cfg.relay(config.relay); // a name that is in no relay is an error, not an empty answer
    }
    for (RelayConfig relay : cfg.relays()) {
      if (config.relay != null && !relay.name().equals(config.relay)) {
        continue;
      }
      try (AdminSession s = AdminSession.open(cfg, relay)) {
        long pending = s.admin.pendingCount();
        String oldest = s.admin.oldestPendingAge().map(StatusCommand::human).orElse("-");
        int parked = s.admin.parked().size();
        out.printf(
            "relay %s (%s, table %s): pending %d, oldest pending %s, parked keys %d, %s%n",
            relay.name(),
            relay.mode().name().toLowerCase(),
            relay.table().name(),
            pending,
            oldest,
            parked,
            owners(s, relay));
      }
    }
    out.flush();
    return 0;
  }

  /** Polling: lease owners and their bucket counts; CDC: the session that streams, if any. */
  private static String owners(AdminSession s, RelayConfig relay) throws SQLException {
    if (relay.mode() == RelayConfig.Mode.CDC) {
      return CdcOwner.find(s.pool, relay.name())
          .map(o -> "cdc active: " + o + " (other instances stand by)")
          .orElse("cdc active: none (no relay streams this source)");
    }
    Map<String, Integer> owners = s.admin.leaseOwners();
    return "leases " + (owners.isEmpty() ? "none" : owners);
  }

  static String human(Duration d) {
    long ms = d.toMillis();
    return ms < 10_000 ? ms + " ms" : ms < 600_000 ? ms / 1000 + " s" : ms / 60_000 + " min";
  }
}
