package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.micrometer.RelayMeters;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.testing.InMemoryPublisher;
import dev.outboxrelay.writer.Outbox;
import io.micrometer.core.instrument.binder.MeterBinder;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/** Which beans the starter defines under which properties and classpaths (no database touched). */
class OutboxAutoConfigurationTest {
  static final AutoConfigurations RUNNER_CONFIG =
      AutoConfigurations.of(OutboxAutoConfiguration.class, OutboxRelayAutoConfiguration.class);
  static final ApplicationContextRunner RUNNER =
      new ApplicationContextRunner()
          .withConfiguration(RUNNER_CONFIG)
          // A DataSource that is never asked for a connection in these tests.
          .withBean(DataSource.class, SimpleDriverDataSource::new);

  @Test
  void writerSideByDefaultAndNoRelay() {
    RUNNER.run(
        c -> {
          assertThat(c).hasNotFailed();
          assertThat(c).hasSingleBean(Outbox.class).hasSingleBean(SpringOutbox.class);
          assertThat(c).hasSingleBean(OutboxAdmin.class).hasSingleBean(DedupStore.class);
          assertThat(c).hasSingleBean(SpringDedup.class).hasSingleBean(DedupMeters.class);
          assertThat(c).doesNotHaveBean(RelayMeters.class);
          assertThat(c).hasSingleBean(DeduplicatedAdvisor.class);
          assertThat(c).hasSingleBean(SpringKafkaDedup.class);
          assertThat(c).doesNotHaveBean(OutboxRelayLifecycle.class);
          assertThat(c).doesNotHaveBean(Publisher.class);
          assertThat(c).doesNotHaveBean(OutboxSchemaInitializer.class);
        });
  }

  @Test
  void switchedOffByOutboxEnabledFalse() {
    RUNNER
        .withPropertyValues("outbox.enabled=false", "outbox.relay.enabled=true")
        .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(Outbox.class));
  }

  @Test
  void nothingWithoutADataSource() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(OutboxAutoConfiguration.class))
        .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(Outbox.class));
  }

  @Test
  void theApplicationsOwnOutboxBeanWins() {
    Outbox own = Outbox.builder().build();
    RUNNER
        .withBean(Outbox.class, () -> own)
        .run(c -> assertThat(c.getBean(Outbox.class)).isSameAs(own));
  }

  @Test
  void relayWithAPublisherFromProperties() {
    RUNNER
        .withPropertyValues(
            "outbox.relay.enabled=true",
            "outbox.relay.auto-startup=false",
            "outbox.publisher.type=kafka",
            "spring.kafka.bootstrap-servers=127.0.0.1:1")
        .run(
            c -> {
              assertThat(c).hasNotFailed().hasSingleBean(OutboxRelayLifecycle.class);
              assertThat(c.getBean(Publisher.class).getClass().getSimpleName())
                  .isEqualTo("KafkaPublisher");
              OutboxRelayLifecycle relay = c.getBean(OutboxRelayLifecycle.class);
              assertThat(relay.isRunning()).isFalse();
              assertThat(relay.state()).isEmpty();
              assertThat(relay.name()).isEqualTo("outbox-relay");
              assertThat(relay.getPhase()).isEqualTo(OutboxRelayLifecycle.PHASE);
              assertThat(c).hasSingleBean(OutboxHealthIndicator.class);
              assertThat(c)
                  .hasSingleBean(RelayMeters.class)
                  .hasSingleBean(RelayMetersSampler.class);
            });
  }

  @Test
  void theTopicTemplatePlaceholderSurvivesSpringsPlaceholderResolution() {
    RUNNER
        .withPropertyValues(
            "outbox.publisher.settings.topic-template=shop.${aggregatetype}",
            "outbox.publisher.settings.linger.ms=5")
        .run(
            c ->
                assertThat(c.getBean(OutboxProperties.class).getPublisher().getSettings())
                    .containsEntry("topic-template", "shop.${aggregatetype}")
                    .containsEntry("linger.ms", "5"));
  }

  @Test
  void kafkaBootstrapServersDefaultToSpringKafkas() {
    var env =
        new org.springframework.mock.env.MockEnvironment()
            .withProperty("spring.kafka.bootstrap-servers", "a:1,b:2");
    assertThat(PublisherFactories.settings("kafka", java.util.Map.of(), env))
        .containsEntry("bootstrap.servers", "a:1,b:2");
    assertThat(
            PublisherFactories.settings("kafka", java.util.Map.of("bootstrap.servers", "c:3"), env))
        .containsEntry("bootstrap.servers", "c:3");
    assertThat(PublisherFactories.settings("rocketmq", java.util.Map.of(), env)).isEmpty();
  }

  @Test
  void theHealthIndicatorCanBeSwitchedOffLikeBootsOwn() {
    RUNNER
        .withPropertyValues(
            "outbox.relay.enabled=true",
            "outbox.relay.auto-startup=false",
            "management.health.outbox.enabled=false")
        .withBean(Publisher.class, InMemoryPublisher::new)
        .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(OutboxHealthIndicator.class));
  }

  @Test
  void theApplicationsOwnPublisherIsUsed() {
    RUNNER
        .withPropertyValues("outbox.relay.enabled=true", "outbox.relay.auto-startup=false")
        .withBean(Publisher.class, InMemoryPublisher::new)
        .run(c -> assertThat(c).hasNotFailed().hasSingleBean(OutboxRelayLifecycle.class));
  }

  /** A listener method {@link Deduplicated} cannot serve fails the start, naming the method. */
  static class WrongListener {
    @Deduplicated
    public void on(String payload) {}
  }

  @Test
  void deduplicatedWithoutAConsumerRecordFailsTheStart() {
    RUNNER
        .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class))
        .withBean(WrongListener.class)
        .run(
            c ->
                assertThat(c.getStartupFailure())
                    .hasStackTraceContaining("@Deduplicated WrongListener.on")
                    .hasStackTraceContaining(
                        "needs a ConsumerRecord or List<ConsumerRecord> parameter"));
  }

  @Test
  void optionalPiecesNeedTheirClasses() {
    RUNNER
        .withPropertyValues(
            "outbox.relay.enabled=true", "outbox.relay.auto-startup=false", "outbox.relay.mode=cdc")
        .withBean(Publisher.class, InMemoryPublisher::new)
        .withClassLoader(
            new FilteredClassLoader(
                MeterBinder.class,
                HealthIndicator.class,
                ConsumerRecord.class,
                dev.outboxrelay.relay.cdc.CdcRelay.class))
        .run(
            c -> {
              assertThat(c).hasFailed();
              assertThat(c.getStartupFailure())
                  .rootCause()
                  .hasMessageContaining("outbox.relay.mode")
                  .hasMessageContaining("outbox-relay-cdc");
            });
    RUNNER
        .withClassLoader(
            new FilteredClassLoader(MeterBinder.class, HealthIndicator.class, ConsumerRecord.class))
        .run(
            c -> {
              assertThat(c).hasNotFailed().hasSingleBean(SpringOutbox.class);
              assertThat(c).doesNotHaveBean(DedupMeters.class).doesNotHaveBean(RelayMeters.class);
              assertThat(c).doesNotHaveBean(DeduplicatedAdvisor.class);
              assertThat(c).doesNotHaveBean(SpringKafkaDedup.class);
              assertThat(c).hasSingleBean(SpringDedup.class);
            });
  }
}
