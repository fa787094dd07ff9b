package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Sends kept messages again (retention {@code keep:<duration>}) by setting them pending: a running
 * polling relay publishes them with the same message id, per key in order, so deduplicating
 * consumers see no second effect.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description =
        "Publish kept messages again (same id): one message, one key, or everything since a time.")
final class ReplayCommand implements Callable<Integer> {
  @Mixin ConfigOption config;
  @Spec CommandSpec spec;

  @Option(
      names = "--follow",
      description =
          "Wait, printing progress every 2 s, until the running relay published them again.")
  boolean follow;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  static final class Target {
    @Option(names = "--id", description = "A message id.")
    UUID id;

    @Option(names = "--key", description = "An aggregate id: all its kept messages.")
    String key;

    @Option(names = "--since", description = "ISO-8601 instant, e.g. 2026-11-29T10:00:00Z.")
    Instant since;
  }

  @Override
  public Integer call() throws InterruptedException {
    DaemonConfig cfg = config.load();
    RelayConfig relay = cfg.relayOrOnly(config.relay);
    if (relay.mode() != RelayConfig.Mode.POLLING) {
      throw new dev.outboxrelay.core.OutboxConfigException(
          "relays[" + cfg.relays().indexOf(relay) + "].mode",
          "cdc",
          "must be polling to replay through the table (a CDC relay sees inserts only); use"
              + " verify --republish");
    }
    if (relay.keepPublishedFor().isEmpty()) {
      throw new dev.outboxrelay.core.OutboxConfigException(
          "relays[" + cfg.relays().indexOf(relay) + "].retention",
          "delete",
          "must be keep:<duration> to replay (published rows are deleted)");
    }
    PrintWriter out = spec.commandLine().getOut();
    try (AdminSession s = AdminSession.open(cfg, relay)) {
      int n;
      if (target.id != null) {
        n = s.admin.replay(target.id) ? 1 : 0;
      } else if (target.key != null) {
        n = s.admin.replayKey(target.key);
      } else {
        n = s.admin.replaySince(target.since);
      }
      out.printf("%d message(s) set to be published again%n", n);
      out.flush();
      if (n == 0) {
        return 1;
      }
      ReplayedPending pending =
          new ReplayedPending(s.pool, relay.table(), target.id, target.key, target.since);
      return !follow || ReplayFollow.follow(pending::count, relay.name(), n, out) ? 0 : 1;
    }
  }
}
