package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.relay.polling.ParkedKey;
import dev.outboxrelay.relay.polling.Retention;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Parked keys: list them, let one flow again from its parked message, or drop that message. */
@Command(
    name = "parked",
    mixinStandardHelpOptions = true,
    description = "List parked keys, unpark (replay) one, or discard its parked message.",
    subcommands = {
      ParkedCommand.ListKeys.class,
      ParkedCommand.Unpark.class,
      ParkedCommand.Discard.class
    })
final class ParkedCommand {

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List parked keys.")
  static final class ListKeys implements Callable<Integer> {
    @Mixin ConfigOption config;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      DaemonConfig cfg = config.load();
      RelayConfig relay = cfg.relayOrOnly(config.relay);
      PrintWriter out = spec.commandLine().getOut();
      try (AdminSession s = AdminSession.open(cfg, relay)) {
        List<ParkedKey> keys = s.admin.parked();
        out.printf("%d parked key(s) in relay %s%n", keys.size(), relay.name());
        for (ParkedKey k : keys) {
          out.printf(
              "key=%s message=%s parked_at=%s reason=%s%n",
              k.aggregateId(), k.messageId(), k.parkedAt(), k.reason());
        }
      }
      out.flush();
      return 0;
    }
  }

  @Command(
      name = "unpark",
      aliases = "replay",
      mixinStandardHelpOptions = true,
      description =
          "Let a parked key flow again: its parked message is sent again, then the rest in order.")
  static final class Unpark implements Callable<Integer> {
    @Mixin ConfigOption config;
    @Spec CommandSpec spec;

    @Option(names = "--key", required = true, description = "The parked aggregate id.")
    String key;

    @Override
    public Integer call() {
      DaemonConfig cfg = config.load();
      try (AdminSession s = AdminSession.open(cfg, cfg.relayOrOnly(config.relay))) {
        boolean done = s.admin.unpark(key);
        spec.commandLine().getOut().println(done ? "unparked " + key : "not parked: " + key);
        spec.commandLine().getOut().flush();
        return done ? 0 : 1;
      }
    }
  }

  @Command(
      name = "discard",
      mixinStandardHelpOptions = true,
      description = "Drop a parked key's message without sending it, then unpark the key.")
  static final class Discard implements Callable<Integer> {
    @Mixin ConfigOption config;
    @Spec CommandSpec spec;

    @Option(names = "--key", required = true, description = "The parked aggregate id.")
    String key;

    @Override
    public Integer call() {
      DaemonConfig cfg = config.load();
      RelayConfig relay = cfg.relayOrOnly(config.relay);
      Retention retention =
          relay.keepPublishedFor().map(Retention::keepFor).orElse(Retention.deleteImmediately());
      try (AdminSession s = AdminSession.open(cfg, relay)) {
        boolean done = s.admin.discardParked(key, retention);
        spec.commandLine()
            .getOut()
            .println(done ? "discarded the parked message of " + key : "not parked: " + key);
        spec.commandLine().getOut().flush();
        return done ? 0 : 1;
      }
    }
  }
}
