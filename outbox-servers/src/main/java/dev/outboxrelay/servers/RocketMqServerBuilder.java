package dev.outboxrelay.servers;

import dev.outboxrelay.servers.internal.PortConflicts;
import java.util.Properties;

/** Options for {@link RocketMqServer#builder()}. Not thread-safe. */
public final class RocketMqServerBuilder {
  private boolean syncFlush;
  private final Properties brokerProperties = new Properties();

  RocketMqServerBuilder() {}

  /**
   * Whether the broker flushes each message to disk before acknowledging it ({@code SYNC_FLUSH})
   * rather than in the background ({@code ASYNC_FLUSH}). Default: false.
   */
  public RocketMqServerBuilder syncFlush(boolean syncFlush) {
    this.syncFlush = syncFlush;
    return this;
  }

  /**
   * Adds or replaces one {@code broker.conf} setting, passed through as is. Default: none beyond
   * the launcher's own ({@code brokerIP1}, {@code listenPort}, {@code flushDiskType}, ...).
   */
  public RocketMqServerBuilder brokerProperty(String key, String value) {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("key must not be blank, but was '" + key + "'");
    }
    if (value == null) {
      throw new IllegalArgumentException("value of " + key + " must not be null");
    }
    brokerProperties.setProperty(key, value);
    return this;
  }

  /**
   * Starts a name server and a broker on free ports; stop them when done (a JVM shutdown hook stops
   * them too).
   *
   * @throws ServerStartException with the log tail if they are not ready within 90 s each
   */
  public RocketMqServer start() {
    return PortConflicts.retry(
        "RocketMQ",
        () -> {
          RocketMqServer server = new RocketMqServer(syncFlush, brokerProperties);
          server.launch();
          return server;
        });
  }
}
