package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.daemon.config.ConfigLoader;
import dev.outboxrelay.daemon.config.DaemonConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Kafka setting that breaks the publisher's promise, from the config file or an {@code OUTBOX_*}
 * override, or a dead-letter topic the broker refuses, stops the start as an invalid configuration
 * (exit 2) naming the daemon's key and the value: the path {@link RelayService#create} takes before
 * any relay runs. No broker is needed.
 */
class PublisherGuaranteeConfigTest {
  private static final String YAML =
      """
      relays:
        - name: orders
          database: {url: 'jdbc:postgresql://127.0.0.1:5432/app', username: app}
          publisher:
            type: kafka
            settings:
              bootstrap.servers: 127.0.0.1:1
              acks: 1
      """;

  @Test
  void acksFromTheFileIsRefusedWithTheDaemonsKey() {
    DaemonConfig c = ConfigLoader.parse(YAML, Map.of());
    assertThatThrownBy(() -> Wiring.publisher(c.relays().get(0), 0))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith("relays[0].publisher.settings.acks must be all")
        .hasMessageEndingWith(", but was '1'");
  }

  /** A name the generic rule accepts but RocketMQ refuses ('.'): refused at start, not per copy. */
  @Test
  void aDeadLetterTopicTheBrokerRefusesIsRefusedWithTheDaemonsKey() {
    String rocketMq =
        """
        relays:
          - name: orders
            database: {url: 'jdbc:postgresql://127.0.0.1:5432/app', username: app}
            publisher:
              type: rocketmq
              dead-letter-topic: orders.dead
              settings:
                namesrvAddr: 127.0.0.1:1
        """;
    DaemonConfig c = ConfigLoader.parse(rocketMq, Map.of());
    assertThatThrownBy(() -> Wiring.publisher(c.relays().get(0), 0))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith("relays[0].publisher.dead-letter-topic has characters RocketMQ")
        .hasMessageEndingWith(", but was 'orders.dead'");
    DaemonConfig kafka =
        ConfigLoader.parse(
            YAML.replace("acks: 1", "acks: all")
                .replace("type: kafka", "type: kafka\n      dead-letter-topic: orders.dead"),
            Map.of());
    Wiring.publisher(kafka.relays().get(0), 0).close();
  }

  @Test
  void anEnvironmentOverrideIsRefusedWithTheDaemonsKey() {
    DaemonConfig c =
        ConfigLoader.parse(
            YAML.replace("acks: 1", "acks: all"),
            Map.of("OUTBOX_RELAYS_0_PUBLISHER_SETTINGS_ENABLE_IDEMPOTENCE", "false"));
    assertThatThrownBy(() -> Wiring.publisher(c.relays().get(0), 0))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith("relays[0].publisher.settings.enable.idempotence must be true")
        .hasMessageEndingWith(", but was 'false'");
  }
}
