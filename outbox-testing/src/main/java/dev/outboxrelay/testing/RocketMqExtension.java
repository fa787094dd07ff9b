package dev.outboxrelay.testing;

import dev.outboxrelay.servers.RocketMqServer;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts the {@linkplain RocketMqServer#shared() shared RocketMQ servers} before a test class runs:
 *
 * <pre>
 * {@code @RegisterExtension static final RocketMqExtension ROCKETMQ = new RocketMqExtension();}
 * </pre>
 *
 * Servers that cannot start fail the tests with the reason; they are never skipped.
 */
public final class RocketMqExtension implements BeforeAllCallback {

  @Override
  public void beforeAll(ExtensionContext context) {
    RocketMqServer.shared();
  }

  /** The shared servers, starting them if no test class did yet. */
  public RocketMqServer server() {
    return RocketMqServer.shared();
  }
}
