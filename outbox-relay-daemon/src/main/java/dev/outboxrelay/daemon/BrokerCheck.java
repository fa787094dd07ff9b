package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.daemon.config.RelayConfig;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The reconciliation's one question to a broker: which of these published messages does it hold?
 * One implementation per broker the daemon can read ({@link KafkaBrokerCheck}, {@link
 * RocketMqBrokerCheck}); {@code verify} and the {@code reconcile} loop both ask through it.
 */
interface BrokerCheck {

  /** The topic template of the relay's publisher: its setting, else the publisher's default. */
  TopicTemplate topics();

  /**
   * The ids of {@code byTopic}'s messages found on the broker. A message cannot have been stored
   * before {@code from}. Throws when the broker cannot be read: a failed check must never report
   * messages as missing.
   *
   * @param progress receives a line now and then on long checks
   */
  Set<UUID> present(
      Map<String, List<OutboxMessage>> byTopic, Instant from, Consumer<String> progress);

  /** The check for the relay's publisher type; {@code kafka} and {@code rocketmq} only. */
  static BrokerCheck of(RelayConfig relay, int index) {
    return switch (relay.publisher().type()) {
      case "kafka" -> new KafkaBrokerCheck(relay.publisher().settings());
      case "rocketmq" -> new RocketMqBrokerCheck(relay.publisher().settings());
      default ->
          throw new OutboxConfigException(
              "relays[" + index + "].publisher.type",
              relay.publisher().type(),
              "must be kafka or rocketmq to reconcile (the brokers the daemon can read)");
    };
  }
}
