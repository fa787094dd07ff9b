package dev.outboxrelay.demo;

import dev.outboxrelay.daemon.OutboxRelayDaemon;
import picocli.CommandLine;

/**
 * The demo jar's entry point: the relay daemon's command line (the same commands, error handling
 * and exit codes) with the {@code demo} command added, so that {@code java -jar
 * outbox-demo-<version>-all.jar demo} runs what {@code ./run-demo} runs. The daemon's own jar has
 * no {@code demo}: it ships neither the server launchers nor the PostgreSQL binaries.
 */
public final class DemoMain {
  private DemoMain() {}

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The daemon's command line plus {@code demo}. */
  public static CommandLine commandLine() {
    return OutboxRelayDaemon.commandLine().addSubcommand("demo", new DemoCommand());
  }
}
