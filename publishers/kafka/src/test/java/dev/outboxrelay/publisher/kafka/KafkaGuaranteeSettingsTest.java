package dev.outboxrelay.publisher.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Settings that would break the publisher's promise (acknowledged = on every in-sync replica,
 * retries never duplicate or reorder a key's messages) are refused when it is built, naming the key
 * and the value; the ones that keep it are accepted. No broker is needed: the check comes first.
 */
class KafkaGuaranteeSettingsTest {
  @ParameterizedTest
  @CsvSource({
    "acks, 1, acks must be all",
    "acks, 0, acks must be all",
    "acks, leader, acks must be all",
    "enable.idempotence, false, enable.idempotence must be true",
    "max.in.flight.requests.per.connection, 6, max.in.flight.requests.per.connection must be between 1 and 5",
    "max.in.flight.requests.per.connection, 0, max.in.flight.requests.per.connection must be between 1 and 5",
  })
  void aSettingThatBreaksThePromiseIsRefusedNamingTheKeyAndTheValue(
      String key, String value, String message) {
    assertThatThrownBy(() -> builder(key, value).build())
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith(message)
        .hasMessageEndingWith(", but was '" + value + "'")
        .satisfies(e -> assertThat(((OutboxConfigException) e).key()).isEqualTo(key));
  }

  @ParameterizedTest
  @CsvSource({
    "acks, all",
    "acks, -1",
    "acks, ALL",
    "enable.idempotence, true",
    "max.in.flight.requests.per.connection, 1",
    "max.in.flight.requests.per.connection, 5",
  })
  void settingsThatKeepThePromiseAreAccepted(String key, String value) {
    Properties p = builder(key, value).effectiveProperties();
    assertThat(p.getProperty(key)).isEqualTo(value);
  }

  @Test
  void theFactoryRefusesTheSameWay() {
    assertThatThrownBy(
            () ->
                new KafkaPublisherFactory()
                    .create(Map.of("bootstrap.servers", "127.0.0.1:1", "acks", "1")))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith("acks must be all")
        .hasMessageEndingWith("but was '1'");
  }

  @Test
  void theDefaultsKeepThePromise() {
    Properties p =
        KafkaPublisher.builder().producerProperty("bootstrap.servers", "h:1").effectiveProperties();
    assertThat(p)
        .containsEntry("acks", "all")
        .containsEntry("enable.idempotence", "true")
        .containsEntry("max.in.flight.requests.per.connection", "5");
  }

  private static KafkaPublisherBuilder builder(String key, String value) {
    return KafkaPublisher.builder()
        .producerProperty("bootstrap.servers", "127.0.0.1:1")
        .producerProperty(key, value);
  }
}
