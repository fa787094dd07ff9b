package dev.outboxrelay.testing;

import dev.outboxrelay.servers.KafkaServer;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts the {@linkplain KafkaServer#shared() shared Kafka broker} before a test class runs:
 *
 * <pre>{@code @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();}</pre>
 *
 * A broker that cannot start fails the tests with the reason; they are never skipped.
 */
public final class KafkaExtension implements BeforeAllCallback {

  @Override
  public void beforeAll(ExtensionContext context) {
    KafkaServer.shared();
  }

  /** The shared broker, starting it if no test class did yet. */
  public KafkaServer server() {
    return KafkaServer.shared();
  }
}
