package dev.outboxrelay.publisher.kafka;

import dev.outboxrelay.core.Setting;
import dev.outboxrelay.core.TopicTemplate;
import java.util.List;

/**
 * The Kafka publisher's own settings, declared once: {@link KafkaPublisherBuilder} and {@link
 * KafkaPublisherFactory} take keys and defaults from here (see {@link Setting}). Every other
 * setting is a producer setting, passed to the client unchanged.
 */
public final class KafkaSettings {
  /** Topic per message, over {@value TopicTemplate#PLACEHOLDER}; Debezium's default. */
  public static final Setting<String> TOPIC_TEMPLATE =
      Setting.text(
          "topic-template",
          TopicTemplate.DEFAULT,
          t -> !t.isBlank(),
          "must not be blank",
          "topic per message, over ${aggregatetype}");

  /** Every setting above, in the README's order. */
  public static final List<Setting<?>> ALL = List.of(TOPIC_TEMPLATE);

  private KafkaSettings() {}

  /** The template the setting names, or the declared default when {@code text} is null. */
  static TopicTemplate topics(String text) {
    return TopicTemplate.of(text == null ? TOPIC_TEMPLATE.defaultValue() : text);
  }
}
