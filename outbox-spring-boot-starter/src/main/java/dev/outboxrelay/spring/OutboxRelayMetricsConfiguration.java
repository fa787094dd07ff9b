package dev.outboxrelay.spring;

import dev.outboxrelay.micrometer.RelayMeters;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded relay's meters when Micrometer is present: {@link RelayMeters} (the same binding and
 * names as the daemon's), tagged with the relay's name and mode. Being a {@code RelayListener} bean
 * it is passed to the relay; being a {@code MeterBinder} Spring Boot binds it. {@link
 * RelayMetersSampler} feeds its table-derived gauges. Imported by {@link
 * OutboxRelayAutoConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(MeterBinder.class)
class OutboxRelayMetricsConfiguration {

  @Bean
  @ConditionalOnMissingBean
  RelayMeters outboxRelayMeters(OutboxRelayLifecycle relay) {
    return new RelayMeters(relay.name(), relay.mode().name().toLowerCase(Locale.ROOT));
  }

  @Bean
  @ConditionalOnMissingBean
  RelayMetersSampler outboxRelayMetersSampler(
      RelayMeters meters, OutboxAdmin admin, OutboxRelayLifecycle relay) {
    return new RelayMetersSampler(meters, admin, relay, RelayMetersSampler.INTERVAL);
  }
}
