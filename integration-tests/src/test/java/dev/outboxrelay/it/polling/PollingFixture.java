package dev.outboxrelay.it.polling;

import dev.outboxrelay.it.KafkaDbFixture;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.relay.polling.PollingRelayBuilder;
import java.time.Duration;

/** Polling relays with test-friendly timings on a {@link KafkaDbFixture}. */
abstract class PollingFixture extends KafkaDbFixture {

  /** A relay builder; the caller sets the publisher and starts it. */
  PollingRelayBuilder relay(String name) {
    return PollingRelay.builder()
        .name(name)
        .dataSource(dataSource)
        .leaseDuration(Duration.ofSeconds(2))
        .pollInterval(Duration.ofMillis(100))
        .backoffInitial(Duration.ofMillis(100))
        .backoffMax(Duration.ofSeconds(2));
  }

  PollingRelay started(PollingRelay relay) {
    closeables.add(relay);
    return relay.start();
  }
}
