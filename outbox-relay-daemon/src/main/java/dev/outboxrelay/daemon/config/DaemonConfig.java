package dev.outboxrelay.daemon.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The daemon's whole configuration, validated: every field holds a legal value.
 *
 * @param http the health and metrics endpoint
 * @param startupTimeout how long {@code run} waits at start-up for each relay's database and broker
 *     to answer before it gives up (exit 4)
 * @param relays one or more relays (tables or sources), each with its own pool and publisher
 */
public record DaemonConfig(HttpConfig http, Duration startupTimeout, List<RelayConfig> relays) {
  /** {@code startup-timeout} when the file has none. */
  public static final Duration DEFAULT_STARTUP_TIMEOUT =
      DaemonSettings.STARTUP_TIMEOUT.defaultValue();

  public DaemonConfig {
    relays = List.copyOf(relays);
  }

  /** The relay with this name. */
  public RelayConfig relay(String name) {
    return relays.stream()
        .filter(r -> r.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new dev.outboxrelay.core.OutboxConfigException(
                    "--relay",
                    name,
                    "must name a relay of the config file, one of "
                        + relays.stream().map(RelayConfig::name).toList()));
  }

  /**
   * The relay a command acts on: the named one, or the only one when the file has a single relay.
   */
  public RelayConfig relayOrOnly(String name) {
    if (name != null) {
      return relay(name);
    }
    if (relays.size() == 1) {
      return relays.get(0);
    }
    throw new dev.outboxrelay.core.OutboxConfigException(
        "--relay",
        null,
        "is required when the config has several relays "
            + relays.stream().map(RelayConfig::name).toList());
  }

  /**
   * Where the HTTP endpoints listen and what they require.
   *
   * @param host the address to bind, default {@code 127.0.0.1} (containers set {@code 0.0.0.0})
   * @param port the port, default 8080; 0 picks a free port
   * @param token when present, {@code /metrics} requires {@code Authorization: Bearer <token>};
   *     {@code /health/live} and {@code /health/ready} stay open for kubelet and load-balancer
   *     probes (they say UP or DOWN per relay name, nothing of the configuration)
   */
  public record HttpConfig(String host, int port, Optional<String> token) {

    /** Endpoints without a token. */
    public HttpConfig(String host, int port) {
      this(host, port, Optional.empty());
    }

    @Override
    public String toString() {
      return "HttpConfig[host="
          + host
          + ", port="
          + port
          + ", token="
          + token.map(t -> "******")
          + "]";
    }
  }
}
