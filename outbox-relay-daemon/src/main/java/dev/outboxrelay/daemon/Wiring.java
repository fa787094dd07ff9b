package dev.outboxrelay.daemon;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.daemon.config.RelayConfig.PublisherConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** Builds pools and publishers from config; the only place concrete pieces are looked up. */
final class Wiring {

  private Wiring() {}

  /** A pool on the relay's database, one attempt; see {@link DatabaseConnect} for the failures. */
  static HikariDataSource pool(RelayConfig relay, int index) {
    return DatabaseConnect.once(relay, index);
  }

  /**
   * The publisher named by {@code publisher.type}, found with {@link ServiceLoader}; callers run
   * {@link PublisherCheck#beforeAnyWait} first (it logs the masked settings at DEBUG).
   */
  static Publisher publisher(RelayConfig relay, int index) {
    PublisherConfig config = relay.publisher();
    PublisherFactory factory = factory(config, index);
    Publisher publisher =
        PublisherCheck.refusedAsConfigError(
            index, config.type(), () -> factory.create(config.settings()));
    checkDeadLetterTopic(config, index, publisher);
    return publisher;
  }

  /** The factory named by {@code publisher.type}; another name is a config error listing them. */
  static PublisherFactory factory(PublisherConfig config, int index) {
    List<String> names = new ArrayList<>();
    for (PublisherFactory factory : ServiceLoader.load(PublisherFactory.class)) {
      names.add(factory.name());
      if (factory.name().equals(config.type())) {
        return factory;
      }
    }
    throw new OutboxConfigException(
        "relays[" + index + "].publisher.type",
        config.type(),
        "must name a publisher on the classpath, one of " + names);
  }

  /**
   * The reader of the relay's broker that its publisher's factory offers ({@link
   * PublisherFactory#brokerCheck}), for {@code use} ({@code verify}, {@code reconcile}).
   *
   * @throws OutboxConfigException naming {@code relays[N].publisher.type} if it offers none
   */
  static BrokerCheck brokerCheck(RelayConfig relay, int index, String use) {
    return offeredBrokerCheck(relay, index)
        .orElseThrow(
            () ->
                new OutboxConfigException(
                    "relays[" + index + "].publisher.type",
                    relay.publisher().type(),
                    "must name a publisher with a broker reader for "
                        + use
                        + " (PublisherFactory.brokerCheck); that publisher offers no broker"
                        + " reader"));
  }

  /** The reader of the relay's broker, if its publisher's factory offers one; opens nothing. */
  static Optional<BrokerCheck> offeredBrokerCheck(RelayConfig relay, int index) {
    PublisherConfig config = relay.publisher();
    PublisherFactory factory = factory(config, index);
    return PublisherCheck.refusedAsConfigError(
        index, config.type(), () -> factory.brokerCheck(config.settings()));
  }

  /** A dead-letter topic the broker would refuse fails the start, naming the key. */
  private static void checkDeadLetterTopic(PublisherConfig config, int index, Publisher publisher) {
    String topic = config.deadLetterTopic().orElse(null);
    String problem = topic == null ? null : publisher.topicProblem(topic).orElse(null);
    if (problem != null) {
      publisher.close();
      throw new OutboxConfigException(
          "relays[" + index + "].publisher.dead-letter-topic", topic, problem);
    }
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
  }
}
