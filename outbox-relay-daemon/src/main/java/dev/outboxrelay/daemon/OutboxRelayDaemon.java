package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.relay.cdc.CdcPositionLostException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code outbox-relay-daemon} command line. Exit codes: 0 done, 1 failure, 2 invalid
 * configuration or arguments, 3 a CDC position is lost (see the message for the reconcile steps), 4
 * a database or broker did not answer within {@code startup-timeout}, 5 the database refused the
 * credentials, 6 the HTTP port cannot be bound, 7 outbox tables are missing and {@code
 * create-schema} is off. Codes 4 to 7 are found before any relay takes work.
 */
@Command(
    name = "outbox-relay-daemon",
    mixinStandardHelpOptions = true,
    versionProvider = OutboxRelayDaemon.Version.class,
    description = "Relays committed outbox rows to Kafka or RocketMQ, and the tools to operate it.",
    subcommands = {
      RunCommand.class,
      StatusCommand.class,
      ParkedCommand.class,
      ReplayCommand.class,
      VerifyCommand.class,
      CommandLine.HelpCommand.class
    })
public final class OutboxRelayDaemon {
  public static final int EXIT_CONFIG = 2;
  public static final int EXIT_POSITION_LOST = 3;
  public static final int EXIT_UNAVAILABLE = 4;
  public static final int EXIT_AUTHENTICATION = 5;
  public static final int EXIT_PORT_IN_USE = 6;
  public static final int EXIT_SCHEMA_MISSING = 7;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line with the daemon's error handling: masked messages, meaningful exit codes. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new OutboxRelayDaemon());
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          PrintWriter err = commandLine.getErr();
          if (e instanceof OutboxConfigException || e instanceof ConfigError) {
            err.println("Invalid configuration: " + Secrets.maskText(e.getMessage()));
            return EXIT_CONFIG;
          }
          if (e instanceof StartupFailure f) {
            err.println(f.kind().prefix + Secrets.maskText(f.getMessage()));
            return f.kind().exitCode;
          }
          if (e instanceof CdcPositionLostException) {
            err.println("CDC position lost: " + Secrets.maskText(e.getMessage()));
            return EXIT_POSITION_LOST;
          }
          err.println("Failed: " + Secrets.maskText(Wiring.rootMessage(e)));
          org.slf4j.LoggerFactory.getLogger(OutboxRelayDaemon.class).debug("Failure", e);
          return 1;
        });
    cli.setParameterExceptionHandler(
        (e, args) -> {
          e.getCommandLine().getErr().println(Secrets.maskText(e.getMessage()));
          e.getCommandLine().usage(e.getCommandLine().getErr());
          return EXIT_CONFIG;
        });
    return cli;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = OutboxRelayDaemon.class.getPackage().getImplementationVersion();
      return new String[] {"outbox-relay-daemon " + (v == null ? "(development build)" : v)};
    }
  }
}
