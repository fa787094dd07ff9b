package dev.outboxrelay.publisher.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.Setting;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.testing.SettingsTable;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's settings table names every declared setting with its declared default. */
class KafkaSettingsReadmeTest {
  @Test
  void theReadmeTableMatchesTheDeclarations() {
    SettingsTable.check(
        SettingsTable.read(Path.of("README.md"), "## Settings"), KafkaSettings.ALL, Setting::key);
  }

  @Test
  void theFactoryReadsTheDeclaredKeyAndDefault() {
    assertThat(KafkaPublisherFactory.TOPIC_TEMPLATE).isEqualTo("topic-template");
    assertThat(KafkaSettings.topics(null)).isEqualTo(TopicTemplate.defaultTemplate());
    assertThat(KafkaSettings.topics("a.${aggregatetype}"))
        .isEqualTo(TopicTemplate.of("a.${aggregatetype}"));
  }
}
