package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import java.io.PrintWriter;
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
  public Integer call() {
    DaemonConfig cfg = config.load();
    PrintWriter out = spec.commandLine().getOut();
    for (RelayConfig relay : cfg.relays()) {
      if (config.relay != null && !relay.name().equals(config.relay)) {
        continue;
      }
      try (AdminSession s = AdminSession.open(cfg, relay)) {
        long pending = s.admin.pendingCount();
        String oldest = s.admin.oldestPendingAge().map(StatusCommand::human).orElse("-");
        int parked = s.admin.parked().size();
        Map<String, Integer> owners = s.admin.leaseOwners();
        out.printf(
            "relay %s (%s, table %s): pending %d, oldest pending %s, parked keys %d, leases %s%n",
            relay.name(),
            relay.mode().name().toLowerCase(),
            relay.table().name(),
            pending,
            oldest,
            parked,
            owners.isEmpty() ? "none" : owners);
      }
    }
    out.flush();
    return 0;
  }

  static String human(Duration d) {
    long ms = d.toMillis();
    return ms < 10_000 ? ms + " ms" : ms < 600_000 ? ms / 1000 + " s" : ms / 60_000 + " min";
  }
}
