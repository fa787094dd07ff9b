package dev.outboxrelay.relay.polling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.testing.InMemoryPublisher;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class PollingRelayBuilderTest {

  @Test
  void namesTheSettingAndTheBadValue() {
    assertThatThrownBy(() -> PollingRelay.builder().batchSize(0))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("batchSize must be between 1 and 10000, but was 0");
    assertThatThrownBy(() -> PollingRelay.builder().inFlightBatches(9))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("inFlightBatches must be between 1 and 8, but was 9");
    assertThatThrownBy(() -> PollingRelay.builder().leaseDuration(Duration.ofMillis(10)))
        .hasMessage("leaseDuration must be at least PT1S, but was PT0.01S");
    assertThatThrownBy(() -> PollingRelay.builder().name(" "))
        .hasMessage("name must be 1 to 80 characters, but was ' '");
    assertThatThrownBy(() -> Retention.keepFor(Duration.ZERO))
        .hasMessage("retention must be a positive duration, but was PT0S");
  }

  @Test
  void aDeadLetterTopicIsCheckedAndNullTurnsItOff() {
    assertThatThrownBy(() -> PollingRelay.builder().deadLetterTopic("orders dead letters"))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage(
            "deadLetterTopic must be 1 to 127 characters from [a-zA-Z0-9._-], but was 'orders"
                + " dead letters'");
    assertThatThrownBy(() -> PollingRelay.builder().deadLetterTopic("x".repeat(128)))
        .hasMessageStartingWith("deadLetterTopic must be 1 to 127 characters");
    assertThatThrownBy(() -> PollingRelay.builder().deadLetterTopic(".."))
        .hasMessage(
            "deadLetterTopic must be 1 to 127 characters from [a-zA-Z0-9._-], but was '..'");
    assertThat(PollingSettings.DEAD_LETTER_TOPIC.defaultValue()).as("off by default").isNull();
    PollingRelay.builder().deadLetterTopic("orders.dead-letters_1").deadLetterTopic(null);
  }

  @Test
  void aDeadLetterTopicThePublisherCannotSendToFailsTheBuild() {
    Publisher noDots =
        new Publisher() {
          @Override
          public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
            throw new UnsupportedOperationException("never called: the build fails first");
          }

          @Override
          public Optional<String> topicProblem(String topic) {
            return topic.contains(".") ? Optional.of("has a dot") : Optional.empty();
          }

          @Override
          public void close() {}
        };
    PollingRelayBuilder builder =
        PollingRelay.builder()
            .dataSource(new org.postgresql.ds.PGSimpleDataSource())
            .publisher(noDots);
    assertThatThrownBy(() -> builder.deadLetterTopic("orders.dead").build())
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("deadLetterTopic has a dot, but was 'orders.dead'");
    assertThat(builder.deadLetterTopic("orders-dead").build()).isNotNull();
  }

  @Test
  void requiresDataSourceAndPublisher() {
    assertThatThrownBy(() -> PollingRelay.builder().publisher(new InMemoryPublisher()).build())
        .hasMessage("dataSource is required, but was null");
  }

  @Test
  void refusesInvertedBackoffBounds() {
    assertThatThrownBy(
            () ->
                PollingRelay.builder()
                    .backoffInitial(Duration.ofSeconds(5))
                    .backoffMax(Duration.ofSeconds(1))
                    .dataSource(new org.postgresql.ds.PGSimpleDataSource())
                    .publisher(new InMemoryPublisher())
                    .build())
        .hasMessageStartingWith("backoffMax must be at least backoffInitial PT5S, but was PT1S");
  }

  @Test
  void backoffSetsBothBoundsAndIsCheckedAtBuild() {
    assertThatThrownBy(
            () ->
                PollingRelay.builder()
                    .backoff(Duration.ofSeconds(5), Duration.ofSeconds(1))
                    .dataSource(new org.postgresql.ds.PGSimpleDataSource())
                    .publisher(new InMemoryPublisher())
                    .build())
        .hasMessage("backoffMax must be at least backoffInitial PT5S, but was PT1S");
    assertThatThrownBy(() -> PollingRelay.builder().backoff(Duration.ZERO, Duration.ofSeconds(1)))
        .hasMessage("backoffInitial must be at least PT0.001S, but was PT0S");
    assertThatThrownBy(() -> PollingRelay.builder().publishTimeout(Duration.ofMillis(99)))
        .hasMessage("publishTimeout must be at least PT0.1S, but was PT0.099S");
  }
}
