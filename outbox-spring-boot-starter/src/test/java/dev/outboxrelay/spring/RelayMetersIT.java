package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.micrometer.RelayMeter;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.InMemoryPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.RequiredSearch;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The embedded relay's meters in the application's registry, on a real PostgreSQL: the names and
 * tags of the daemon's {@code /metrics} (outbox-micrometer's {@link RelayMeter}), moved by the
 * relay's events, and the table-derived gauges fed by {@link RelayMetersSampler}.
 */
class RelayMetersIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  static final String[] TAGS = {"relay", "metered", "mode", "polling"};

  @Test
  void theRelaysEventsMoveTheDaemonsMetersInTheApplicationsRegistry() {
    String db = DB.server().createDatabase();
    InMemoryPublisher publisher = new InMemoryPublisher();
    publisher.failWith(
        m ->
            m.aggregateId().equals("poison") ? new NonRetriablePublishException("no", null) : null);
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class,
                MetricsAutoConfiguration.class,
                CompositeMeterRegistryAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class,
                OutboxAutoConfiguration.class,
                OutboxRelayAutoConfiguration.class))
        .withBean(Publisher.class, () -> publisher)
        .withPropertyValues(
            "spring.datasource.url=" + DB.server().jdbcUrl(db),
            "spring.datasource.username=" + DB.server().user(),
            "spring.datasource.password=" + DB.server().password(),
            "outbox.schema.create=true",
            "outbox.relay.enabled=true",
            "outbox.relay.auto-startup=false",
            "outbox.relay.name=metered")
        .run(
            c -> {
              assertThat(c).hasNotFailed();
              MeterRegistry registry = c.getBean(MeterRegistry.class);
              RelayMetersSampler sampler = c.getBean(RelayMetersSampler.class);
              assertThat(sampler.isRunning()).isTrue();
              save(c, "a", "b", "poison");
              sampler.sample();
              assertThat(gauge(registry, "outbox.backlog.messages")).isEqualTo(3);

              c.getBean(OutboxRelayLifecycle.class).start();
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> count(registry.get("outbox.parked")), n -> n == 1);
              await()
                  .atMost(Duration.ofSeconds(30))
                  .until(() -> count(registry.get("outbox.published")), n -> n == 2);
              sampler.sample();
              assertThat(gauge(registry, "outbox.backlog.messages")).isEqualTo(1);
              assertThat(gauge(registry, "outbox.parked.keys")).isEqualTo(1);
              assertThat(gauge(registry, "outbox.owned.buckets")).isEqualTo(256);
              assertThat(count(registry.get("outbox.errors").tag("kind", "rejected"))).isEqualTo(1);
              assertThat(registry.get("outbox.publish.ack").tags(TAGS).timer().count())
                  .isPositive();
              assertThat(names(registry)).containsAll(everyRelayMeter());
            });
  }

  private static void save(ApplicationContext c, String... keys) {
    new TransactionTemplate(c.getBean(PlatformTransactionManager.class))
        .executeWithoutResult(
            s -> {
              for (String key : keys) {
                c.getBean(SpringOutbox.class).save(SpringOutboxIT.message(key));
              }
            });
  }

  private static Set<String> everyRelayMeter() {
    return Arrays.stream(RelayMeter.values())
        .map(RelayMeter::meterName)
        .collect(Collectors.toSet());
  }

  /** Names of the meters carrying this relay's tags. */
  private static Set<String> names(MeterRegistry registry) {
    return registry.getMeters().stream()
        .filter(m -> TAGS[1].equals(m.getId().getTag("relay")))
        .filter(m -> TAGS[3].equals(m.getId().getTag("mode")))
        .map(m -> m.getId().getName())
        .collect(Collectors.toSet());
  }

  private static double count(RequiredSearch search) {
    return search.tags(TAGS).functionCounter().count();
  }

  private static double gauge(MeterRegistry registry, String name) {
    return registry.get(name).tags(TAGS).gauge().value();
  }
}
