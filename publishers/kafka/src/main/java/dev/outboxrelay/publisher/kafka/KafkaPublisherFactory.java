package dev.outboxrelay.publisher.kafka;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.core.TopicTemplate;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code kafka}: settings {@code topic-template} (default {@code outbox.event.${aggregatetype}});
 * every other setting is a producer setting, passed through.
 */
public final class KafkaPublisherFactory implements PublisherFactory {
  public static final String TOPIC_TEMPLATE = "topic-template";

  @Override
  public String name() {
    return "kafka";
  }

  @Override
  public Publisher create(Map<String, String> settings) {
    Map<String, String> producer = new HashMap<>(settings);
    String template = producer.remove(TOPIC_TEMPLATE);
    return KafkaPublisher.builder()
        .producerProperties(producer)
        .topicTemplate(
            template == null ? TopicTemplate.defaultTemplate() : TopicTemplate.of(template))
        .build();
  }
}
