package dev.outboxrelay.daemon;

import dev.outboxrelay.daemon.config.RelayConfig.PublisherConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Asks a relay's broker whether it answers, without sending a message: Kafka through an admin
 * client's {@code describeCluster} (same bootstrap and security settings as the publisher),
 * RocketMQ by connecting to a name server. A publisher of another type has no probe and is judged
 * by its publish outcomes only. Used at start-up and, while a relay publishes nothing, by
 * readiness.
 */
abstract class BrokerProbe implements AutoCloseable {

  /**
   * Empty if the broker answered within {@code timeout}, else why not.
   *
   * @throws AuthenticationFailed if the broker refused the credentials or the TLS handshake
   */
  abstract Optional<String> check(Duration timeout);

  /** Empty if the broker answered, else why not; a refused authentication is a failure too. */
  final Optional<String> checkAnswer(Duration timeout) {
    try {
      return check(timeout);
    } catch (AuthenticationFailed e) {
      return Optional.of("authentication failed: " + e.getMessage());
    }
  }

  /** The broker refused the credentials or the TLS handshake: retrying will not help. */
  static final class AuthenticationFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AuthenticationFailed(String message) {
      super(message);
    }
  }

  /** What is probed, for messages: {@code kafka bootstrap.servers host:port}. */
  abstract String target();

  @Override
  public void close() {}

  static BrokerProbe of(PublisherConfig publisher) {
    Map<String, String> s = publisher.settings();
    if (publisher.type().equals("kafka") && s.containsKey("bootstrap.servers")) {
      return new KafkaProbe(s);
    }
    if (publisher.type().equals("rocketmq")) {
      // An environment override spells it namesrvaddr; the RocketMQ factory accepts either.
      for (Map.Entry<String, String> e : s.entrySet()) {
        if (e.getKey().equalsIgnoreCase("namesrvAddr")) {
          return new NameServerProbe(e.getValue());
        }
      }
    }
    return new None(publisher.type());
  }

  private static final class None extends BrokerProbe {
    private final String type;

    None(String type) {
      this.type = type;
    }

    @Override
    Optional<String> check(Duration timeout) {
      return Optional.empty();
    }

    @Override
    String target() {
      return type + " publisher (no probe)";
    }
  }
}
