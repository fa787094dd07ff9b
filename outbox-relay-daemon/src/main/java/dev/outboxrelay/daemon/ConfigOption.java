package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.ConfigLoader;
import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --config} and {@code --relay}, shared by the commands that act on configured relays. */
final class ConfigOption {
  @Option(
      names = {"-c", "--config"},
      required = true,
      paramLabel = "FILE",
      description = "The relay YAML file (OUTBOX_* environment variables override its keys).")
  Path file;

  @Option(
      names = "--relay",
      paramLabel = "NAME",
      description = "Which relay of the file; optional when the file has one relay.")
  String relay;

  /** Loads and validates the file (secrets are masked by key wherever they are printed). */
  DaemonConfig load() {
    return ConfigLoader.load(file);
  }

  RelayConfig selected() {
    return load().relayOrOnly(relay);
  }
}
