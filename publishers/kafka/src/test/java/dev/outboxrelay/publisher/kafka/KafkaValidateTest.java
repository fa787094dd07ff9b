package dev.outboxrelay.publisher.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code validate} refuses what the producer would, naming the key, with no broker anywhere. */
class KafkaValidateTest {
  private final KafkaPublisherFactory factory = new KafkaPublisherFactory();

  @Test
  void aValueKafkasDefinitionRefusesIsNamedWithItsKeyAndValue() {
    assertThatThrownBy(() -> factory.validate(with("linger.ms", "soon")))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage(
            "linger.ms is refused by the Kafka producer: Not a number of type LONG, but was 'soon'");
    assertThatThrownBy(() -> factory.validate(with("compression.type", "zipper")))
        .hasMessageStartingWith("compression.type is refused by the Kafka producer: ")
        .hasMessageEndingWith(", but was 'zipper'");
    assertThatThrownBy(() -> factory.validate(with("acks", "maybe")))
        .hasMessageStartingWith("acks must be all")
        .hasMessageEndingWith("but was 'maybe'");
  }

  @Test
  void aBootstrapListWithoutPortsIsFoundWithoutALookup() {
    assertThatThrownBy(() -> factory.validate(with("bootstrap.servers", "kafka-without-port")))
        .hasMessage("bootstrap.servers must list host:port entries, but was 'kafka-without-port'");
  }

  @Test
  void goodSettingsPassWithoutABrokerAndTopicNamesAreKafkas() {
    factory.validate(with("bootstrap.servers", "no-such-host.invalid:9092"));
    assertThat(factory.topicProblem("orders.events")).isEmpty();
    assertThat(factory.topicProblem("bad topic")).isPresent();
  }

  private static Map<String, String> with(String key, String value) {
    Map<String, String> s = new HashMap<>(Map.of("bootstrap.servers", "127.0.0.1:9092"));
    s.put(key, value);
    return s;
  }
}
