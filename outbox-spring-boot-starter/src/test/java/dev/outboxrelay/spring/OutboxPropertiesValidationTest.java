package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.testing.InMemoryPublisher;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/** A bad outbox.* value fails the start and the message names the property key and the value. */
class OutboxPropertiesValidationTest {
  static final ApplicationContextRunner RUNNER =
      OutboxAutoConfigurationTest.RUNNER.withBean(Publisher.class, InMemoryPublisher::new);

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "outbox.relay.batch-size=0|outbox.relay.batch-size must be between 1 and 10000, but was 0",
        "outbox.relay.batch-size=10001|outbox.relay.batch-size must be between 1 and 10000",
        "outbox.relay.lease-duration=500ms|outbox.relay.lease-duration must be at least PT1S",
        "outbox.relay.poll-interval=0s|outbox.relay.poll-interval must be at least PT0.001S",
        "outbox.relay.backoff-max=10ms|outbox.relay.backoff-max must be at least PT0.1S",
        "outbox.relay.publish-timeout=1ms|outbox.relay.publish-timeout must be at least PT0.1S",
        "outbox.table.name=orders;drop|outbox.table.name must be an SQL identifier",
        "outbox.table.schema=a b|outbox.table.schema must be an SQL identifier",
        "outbox.dedup.table-name=1x|outbox.dedup.table-name must be an SQL identifier",
        "outbox.writer.max-payload-bytes=0|outbox.writer.max-payload-bytes must be at least 1",
        "outbox.writer.wake-up-interval=-1ms|outbox.writer.wake-up-interval must be 0 (never notify)"
            + " or more, such as 20ms, but was PT-0.001S",
        "outbox.dedup.group= |outbox.dedup.group must be 1 to 255 characters",
        "outbox.publisher.type= |outbox.publisher.type must be a PublisherFactory name",
      })
  void badValueNamesItsKey(String property, String message) {
    RUNNER
        .withPropertyValues(property)
        .run(
            c -> {
              assertThat(c).hasFailed();
              assertThat(c.getStartupFailure()).hasStackTraceContaining(message);
            });
  }

  @Test
  void aWriterLimitAboveThePublishersRequestLimitIsRefused() {
    RUNNER
        .withPropertyValues(
            "outbox.publisher.type=kafka",
            "outbox.publisher.settings.max.request.size=524288",
            "outbox.writer.max-payload-bytes=500000")
        .run(
            c ->
                assertThat(c.getStartupFailure())
                    .hasStackTraceContaining(
                        "outbox.writer.max-payload-bytes must be at most"
                            + " outbox.publisher.settings.max.request.size (524288) - 32768 ="
                            + " 491520")
                    .hasStackTraceContaining("but was 500000"));
    RUNNER
        .withPropertyValues(
            "outbox.publisher.type=kafka", "outbox.writer.max-payload-bytes=1048576")
        .run(
            c ->
                assertThat(c.getStartupFailure())
                    .hasStackTraceContaining("max.request.size (1048576)"));
    RUNNER
        .withPropertyValues(
            "outbox.publisher.type=rocketmq", "outbox.writer.max-payload-bytes=1048576")
        .run(c -> assertThat(c.getStartupFailure()).isNull());
  }

  @Test
  void cdcModeChecksItsOwnRules() {
    RUNNER
        .withPropertyValues(
            "outbox.relay.mode=cdc",
            "outbox.relay.name=has space",
            "outbox.relay.strict-order=true")
        .run(
            c ->
                assertThat(c.getStartupFailure())
                    .hasStackTraceContaining(
                        "outbox.relay.name must match [A-Za-z][A-Za-z0-9_-]{0,40}")
                    .hasStackTraceContaining("outbox.relay.strict-order must be false in cdc"));
  }

  @Test
  void aBadDeadLetterTopicIsNamedWithItsValue() {
    RUNNER
        .withPropertyValues("outbox.relay.dead-letter-topic=dead letters")
        .run(
            c ->
                assertThat(c.getStartupFailure())
                    .hasStackTraceContaining(
                        "outbox.relay.dead-letter-topic must be 1 to 127 characters from"
                            + " [a-zA-Z0-9._-], but was 'dead letters'"));
  }

  @Test
  void anUnknownModeNamesTheProperty() {
    RUNNER
        .withPropertyValues("outbox.relay.mode=sideways")
        .run(c -> assertThat(c.getStartupFailure()).hasStackTraceContaining("outbox.relay.mode"));
  }

  @Test
  void relayWithoutPublisherSaysWhatIsMissing() {
    new ApplicationContextRunner()
        .withConfiguration(OutboxAutoConfigurationTest.RUNNER_CONFIG)
        .withBean(DataSource.class, SimpleDriverDataSource::new)
        .withPropertyValues("outbox.relay.enabled=true", "outbox.relay.auto-startup=false")
        .run(
            c ->
                assertThat(c.getStartupFailure())
                    .hasStackTraceContaining("outbox.publisher.type is required"));
  }

  @Test
  void anUnknownPublisherTypeListsTheKnownOnes() {
    new ApplicationContextRunner()
        .withConfiguration(OutboxAutoConfigurationTest.RUNNER_CONFIG)
        .withBean(DataSource.class, SimpleDriverDataSource::new)
        .withPropertyValues(
            "outbox.relay.enabled=true",
            "outbox.relay.auto-startup=false",
            "outbox.publisher.type=pigeon")
        .run(
            c ->
                assertThat(c.getStartupFailure())
                    .hasStackTraceContaining("outbox.publisher.type must name a PublisherFactory")
                    .hasStackTraceContaining("[kafka]")
                    .hasStackTraceContaining("'pigeon'"));
  }

  @Test
  void defaultsAreValid() {
    RUNNER.run(c -> assertThat(c).hasNotFailed());
  }
}
