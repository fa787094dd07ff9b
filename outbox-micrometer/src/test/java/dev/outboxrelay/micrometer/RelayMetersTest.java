package dev.outboxrelay.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.RetriablePublishException;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RelayMetersTest {
  static final OutboxMessage MESSAGE =
      OutboxMessage.builder()
          .aggregateType("order")
          .aggregateId("o-1")
          .type("placed")
          .payload("{}")
          .createdAt(Instant.now().minusSeconds(3))
          .build();

  /** One of each relay event; what the starter's and the daemon's tests drive too. */
  static void driveOneOfEach(RelayMeters meters) {
    meters.onLeasesChanged(Set.of(1, 2, 3));
    meters.onPublished(List.of(MESSAGE, MESSAGE), Duration.ofMillis(40));
    meters.onRetry(MESSAGE, new RetriablePublishException("broker down", null), 1, Duration.ZERO);
    meters.onParked("o-1", MESSAGE, "rejected");
    meters.onFenced(4);
    meters.onError(new IllegalStateException("db"), Duration.ZERO);
    meters.sampled(12, Duration.ofSeconds(7), 1);
    meters.sampledState(RelayState.Phase.ACTIVE, true);
  }

  @Test
  void everyRelayEventMovesItsMeterTaggedWithTheRelayAndMode() {
    MeterRegistry registry = new SimpleMeterRegistry();
    RelayMeters meters = new RelayMeters("orders", "polling");
    meters.bindTo(registry);
    driveOneOfEach(meters);

    assertThat(names(registry))
        .isEqualTo(
            Arrays.stream(RelayMeter.values())
                .map(RelayMeter::meterName)
                .collect(Collectors.toSet()));
    for (Meter m : registry.getMeters()) {
      assertThat(m.getId().getTag("relay")).as(m.getId().toString()).isEqualTo("orders");
      assertThat(m.getId().getTag("mode")).as(m.getId().toString()).isEqualTo("polling");
    }
    assertThat(count(registry, "outbox.published")).isEqualTo(2);
    assertThat(count(registry, "outbox.retries")).isEqualTo(1);
    assertThat(count(registry, "outbox.parked")).isEqualTo(1);
    assertThat(count(registry, "outbox.fenced.marks")).isEqualTo(4);
    for (String kind : List.of("publish", "rejected", "database")) {
      assertThat(registry.get("outbox.errors").tag("kind", kind).functionCounter().count())
          .as(kind)
          .isEqualTo(1);
    }
    assertThat(registry.get("outbox.publish.ack").timer().count()).isEqualTo(1);
    assertThat(gauge(registry, "outbox.owned.buckets")).isEqualTo(3);
    assertThat(gauge(registry, "outbox.backlog.messages")).isEqualTo(12);
    assertThat(gauge(registry, "outbox.oldest.pending.age.seconds")).isEqualTo(7);
    assertThat(gauge(registry, "outbox.parked.keys")).isEqualTo(1);
    assertThat(gauge(registry, "outbox.relay.lag.seconds")).isBetween(3.0, 60.0);
    assertThat(meters.publishedCount()).isEqualTo(2);
    assertThat(gauge(registry, "outbox.relay.ready")).isEqualTo(1);
    for (RelayState.Phase p : RelayState.Phase.values()) {
      String phase = p.name().toLowerCase(Locale.ROOT);
      assertThat(registry.get("outbox.relay.phase").tag("phase", phase).gauge().value())
          .as(phase)
          .isEqualTo(p == RelayState.Phase.ACTIVE ? 1 : 0);
    }
  }

  @Test
  void beforeTheFirstStateSampleTheRelayIsNewAndNotReady() {
    MeterRegistry registry = new SimpleMeterRegistry();
    RelayMeters meters = new RelayMeters("orders", "cdc");
    meters.bindTo(registry);
    assertThat(gauge(registry, "outbox.relay.ready")).isZero();
    assertThat(registry.get("outbox.relay.phase").tag("phase", "new").gauge().value()).isOne();
    meters.sampledState(RelayState.Phase.STANDBY, true);
    assertThat(registry.get("outbox.relay.phase").tag("phase", "new").gauge().value()).isZero();
    assertThat(registry.get("outbox.relay.phase").tag("phase", "standby").gauge().value()).isOne();
  }

  @Test
  void twoRelaysInOneRegistryStayApart() {
    MeterRegistry registry = new SimpleMeterRegistry();
    RelayMeters orders = new RelayMeters("orders", "polling");
    RelayMeters payments = new RelayMeters("payments", "cdc");
    orders.bindTo(registry);
    payments.bindTo(registry);
    orders.onPublished(List.of(MESSAGE, MESSAGE, MESSAGE), Duration.ofMillis(5));
    payments.onPublished(List.of(MESSAGE), Duration.ofMillis(5));

    assertThat(registry.get("outbox.published").tag("relay", "orders").functionCounter().count())
        .isEqualTo(3);
    assertThat(
            registry
                .get("outbox.published")
                .tags("relay", "payments", "mode", "cdc")
                .functionCounter()
                .count())
        .isEqualTo(1);
    assertThat(registry.get("outbox.publish.ack").tag("relay", "orders").timer().count())
        .isEqualTo(1);
  }

  @Test
  void countsWhatHappenedBeforeBindingAndFeedsEveryRegistryOnce() {
    RelayMeters meters = new RelayMeters("orders", "polling");
    meters.onPublished(List.of(MESSAGE), Duration.ofMillis(5));
    MeterRegistry first = new SimpleMeterRegistry();
    MeterRegistry second = new SimpleMeterRegistry();
    meters.bindTo(first);
    meters.bindTo(first);
    meters.bindTo(second);
    meters.onPublished(List.of(MESSAGE), Duration.ofMillis(5));

    for (MeterRegistry r : List.of(first, second)) {
      assertThat(count(r, "outbox.published")).isEqualTo(2);
      assertThat(r.get("outbox.publish.ack").timer().count())
          .as(r == first ? "first" : "second")
          .isEqualTo(1);
    }
  }

  /** The names of the registered meters, without the percentile gauges of the timer. */
  static Set<String> names(MeterRegistry registry) {
    return registry.getMeters().stream()
        .map(m -> m.getId().getName())
        .filter(n -> !n.endsWith(".percentile"))
        .collect(Collectors.toSet());
  }

  private static double count(MeterRegistry registry, String name) {
    return registry.get(name).functionCounter().count();
  }

  private static double gauge(MeterRegistry registry, String name) {
    return registry.get(name).gauge().value();
  }
}
