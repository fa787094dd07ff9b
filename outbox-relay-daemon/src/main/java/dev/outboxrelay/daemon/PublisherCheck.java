package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.daemon.config.RelayConfig.PublisherConfig;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks of a relay's publisher section that need no server: its type, its settings (the
 * factory's {@link PublisherFactory#validate}), the dead-letter topic's name, and with {@code
 * reconcile.enabled} a broker reader offered by the factory. {@code run} makes them for every relay
 * before it waits for any database or broker, so an operator with a bad setting and a database that
 * is not up yet learns of the setting at once (exit 2).
 */
final class PublisherCheck {
  private static final Logger log = LoggerFactory.getLogger(PublisherCheck.class);

  private PublisherCheck() {}

  static void beforeAnyWait(RelayConfig relay, int index) {
    PublisherConfig config = relay.publisher();
    PublisherFactory factory = Wiring.factory(config, index);
    // Before the check, so that an operator debugging a refused setting sees what was read.
    log.debug(
        "Relay {} - publisher {} settings {}",
        relay.name(),
        config.type(),
        Secrets.maskProperties(config.settings()));
    refusedAsConfigError(
        index,
        config.type(),
        () -> {
          factory.validate(config.settings());
          return null;
        });
    String topic = config.deadLetterTopic().orElse(null);
    String problem = topic == null ? null : factory.topicProblem(topic).orElse(null);
    if (problem != null) {
      throw new OutboxConfigException(
          "relays[" + index + "].publisher.dead-letter-topic", topic, problem);
    }
    if (relay.reconcile().enabled()) {
      Wiring.brokerCheck(relay, index, "reconcile.enabled").close(); // offered; opened nothing
    }
  }

  /**
   * Runs {@code step}; a setting it refuses becomes a {@link ConfigError} under {@code
   * relays[N].publisher.settings.}, masked by key (the exception's own message already masks the
   * value of a secret key; {@link Secrets#maskText} catches a secret inside a client's message).
   */
  static <T> T refusedAsConfigError(int index, String type, Supplier<T> step) {
    try {
      return step.get();
    } catch (OutboxConfigException e) {
      throw new ConfigError(
          "relays[" + index + "].publisher.settings." + Secrets.maskText(e.getMessage()), null);
    } catch (RuntimeException e) {
      throw new ConfigError(
          "relays["
              + index
              + "].publisher.settings are refused by the "
              + type
              + " client: "
              + Secrets.maskText(Wiring.rootMessage(e)),
          null);
    }
  }
}
