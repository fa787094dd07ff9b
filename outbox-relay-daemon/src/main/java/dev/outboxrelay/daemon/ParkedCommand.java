package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.relay.engine.DiscardedMessage;
import dev.outboxrelay.relay.engine.ParkedKey;
import dev.outboxrelay.relay.engine.Retention;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Parked keys: list them, let one flow again from its parked message, or drop that message (a
 * recorded decision, listed by {@code parked discarded}).
 */
@Command(
    name = "parked",
    mixinStandardHelpOptions = true,
    description =
        "List parked keys, unpark (replay) one, discard its parked message, or list discards.",
    subcommands = {
      ParkedCommand.ListKeys.class,
      ParkedCommand.Unpark.class,
      ParkedCommand.Discard.class,
      ParkedCommand.ListDiscarded.class
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
              "key=%s message=%s parked_at=%s dead_lettered=%s reason=%s%n",
              k.aggregateId(),
              k.messageId(),
              k.parkedAt(),
              k.deadLettered().map(Object::toString).orElse("no"),
              k.reason());
        }
        out.printf(
            "%d discarded message(s): parked discarded lists them%n", s.admin.discarded().size());
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

    @Option(
        names = "--by",
        description = "Who decides, recorded with the discard. Default: user@host of this process.")
    String by;

    @Override
    public Integer call() {
      DaemonConfig cfg = config.load();
      RelayConfig relay = cfg.relayOrOnly(config.relay);
      String who = by != null && !by.isBlank() ? by : operator();
      Retention retention =
          relay.keepPublishedFor().map(Retention::keepFor).orElse(Retention.deleteImmediately());
      try (AdminSession s = AdminSession.open(cfg, relay)) {
        boolean done = s.admin.discardParked(key, retention, who);
        spec.commandLine()
            .getOut()
            .println(
                done
                    ? "discarded the parked message of " + key + " (recorded, by " + who + ")"
                    : "not parked: " + key);
        spec.commandLine().getOut().flush();
        return done ? 0 : 1;
      }
    }

    private static String operator() {
      String host;
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.net.UnknownHostException e) {
        host = "unknown-host";
      }
      return System.getProperty("user.name", "unknown") + "@" + host;
    }
  }

  @Command(
      name = "discarded",
      mixinStandardHelpOptions = true,
      description = "List the discarded messages: never sent, and reported by verify as discarded.")
  static final class ListDiscarded implements Callable<Integer> {
    @Mixin ConfigOption config;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      DaemonConfig cfg = config.load();
      RelayConfig relay = cfg.relayOrOnly(config.relay);
      PrintWriter out = spec.commandLine().getOut();
      try (AdminSession s = AdminSession.open(cfg, relay)) {
        List<DiscardedMessage> discarded = s.admin.discarded();
        out.printf("%d discarded message(s) in relay %s%n", discarded.size(), relay.name());
        for (DiscardedMessage d : discarded) {
          out.printf(
              "message=%s key=%s discarded_at=%s by=%s reason=%s%n",
              d.messageId(), d.aggregateId(), d.discardedAt(), d.discardedBy(), d.reason());
        }
      }
      out.flush();
      return 0;
    }
  }
}
