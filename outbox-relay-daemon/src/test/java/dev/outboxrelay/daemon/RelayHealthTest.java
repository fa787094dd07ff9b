package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.RetriablePublishException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RelayHealthTest {
  private static final OutboxMessage M =
      OutboxMessage.builder()
          .aggregateType("order")
          .aggregateId("o-1")
          .type("OrderPlaced")
          .payload("{}")
          .build();

  private final AtomicLong now = new AtomicLong();
  // publish-timeout 10 s, backoff-max 5 s: a retrying key fails at least every 15 s.
  private final RelayHealth health =
      new RelayHealth(Duration.ofSeconds(10), Duration.ofSeconds(5), now::get);

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
  void aPublishFailureNothingRetriedForTwiceTheRetrySpacingYieldsToAProbe() {
    failPublish();
    now.addAndGet(Duration.ofSeconds(30).toNanos());
    health.probed(Optional.empty());
    assertThat(health.problems()).isNotEmpty(); // 30 s is not more than 2 x 15 s

    now.addAndGet(1);
    health.probed(Optional.empty());
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
