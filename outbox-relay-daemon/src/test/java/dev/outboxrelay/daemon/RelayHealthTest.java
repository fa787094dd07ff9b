package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.RetriablePublishException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RelayHealthTest {
  private static final OutboxMessage M =
      OutboxMessage.builder()
          .aggregateType("order")
          .aggregateId("o-1")
          .type("OrderPlaced")
          .payload("{}")
          .build();

  private final RelayHealth health = new RelayHealth(Duration.ofMinutes(1));

  @Test
  void aRoundThatAcknowledgedNothingIsNoAnswer() {
    failPublish();
    health.onPublished(List.of(), Duration.ofSeconds(2));
    assertThat(health.problems()).singleElement().asString().startsWith("publisher: failing");
  }

  @Test
  void aProbeAnswerDoesNotClearAPublishFailureNewerThanTheLastAcknowledgement() {
    failPublish();
    health.probed(Optional.empty());
    assertThat(health.problems()).singleElement().asString().contains("NOT_ENOUGH_REPLICAS");

    health.onPublished(List.of(M), Duration.ofMillis(5));
    assertThat(health.problems()).isEmpty();
  }

  @Test
  void aProbeAnswerClearsAFailedProbe() {
    health.probed(Optional.of("no answer within 3000 ms"));
    assertThat(health.problems()).singleElement().asString().contains("no answer within");
    health.probed(Optional.empty());
    assertThat(health.problems()).isEmpty();
  }

  private void failPublish() {
    health.onRetry(
        M, new RetriablePublishException("NOT_ENOUGH_REPLICAS", null), 1, Duration.ofSeconds(1));
  }
}
