package dev.outboxrelay.publisher.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.Setting;
import dev.outboxrelay.testing.SettingsTable;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.rocketmq.client.producer.SendStatus;
import org.junit.jupiter.api.Test;

/** The README's settings table and the builder's defaults follow the declarations. */
class RocketMqSettingsReadmeTest {
  @Test
  void theReadmeTableMatchesTheDeclarations() {
    SettingsTable.check(
        SettingsTable.read(Path.of("README.md"), "## Settings"),
        RocketMqSettings.ALL,
        Setting::key);
  }

  @Test
  void theBuilderStartsFromTheDeclaredDefaults() {
    RocketMqPublisherBuilder b = RocketMqPublisher.builder();
    assertThat(b.topics.toString()).isEqualTo("outbox-event-${aggregatetype}");
    assertThat(b.maxAttempts).isEqualTo(3);
    assertThat(b.retryBackoff).isEqualTo(Duration.ofMillis(100));
    assertThat(b.concurrency).isEqualTo(4);
    assertThat(b.accepted).containsExactly(SendStatus.SEND_OK);
  }

  @Test
  void sendStatusListsAreCheckedByTheDeclaration() {
    assertThat(RocketMqSettings.statuses(" FLUSH_DISK_TIMEOUT, SLAVE_NOT_AVAILABLE,"))
        .containsExactly(SendStatus.FLUSH_DISK_TIMEOUT, SendStatus.SLAVE_NOT_AVAILABLE);
    assertThat(RocketMqSettings.ACCEPT_SEND_STATUSES.check("")).isEmpty();
  }
}
