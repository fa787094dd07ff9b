package dev.outboxrelay.publisher.kafka;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.kafka.internal.KafkaBrokerCheck;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * {@code kafka}: the settings of {@link KafkaSettings} ({@code topic-template}); every other
 * setting is a producer setting, passed through.
 */
public final class KafkaPublisherFactory implements PublisherFactory {
  /** The key of {@link KafkaSettings#TOPIC_TEMPLATE}. */
  public static final String TOPIC_TEMPLATE = KafkaSettings.TOPIC_TEMPLATE.key();

  @Override
  public String name() {
    return "kafka";
  }

  @Override
  public Publisher create(Map<String, String> settings) {
    return configured(settings).build();
  }

  /**
   * Every producer setting against Kafka's own definition of it (type, allowed values, the rules
   * between settings) and the publisher's guarantees, without creating a producer: no thread, no
   * DNS lookup, no connection.
   */
  @Override
  public void validate(Map<String, String> settings) {
    configured(settings).validate();
  }

  /** Kafka's rule for topic names, as {@link KafkaPublisher#topicProblem}. */
  @Override
  public Optional<String> topicProblem(String topic) {
    return KafkaPublisher.topicNameProblem(topic);
  }

  /**
   * Reads the topics by the {@code id} header on a consumer of its own (no group, nothing
   * committed); probes with an admin client's {@code describeCluster}. Both use the publisher's
   * client settings (bootstrap, TLS, SASL).
   */
  @Override
  public Optional<BrokerCheck> brokerCheck(Map<String, String> settings) {
    TopicTemplate topics = KafkaSettings.topics(settings.get(TOPIC_TEMPLATE));
    return Optional.of(new KafkaBrokerCheck(settings, topics));
  }

  private static KafkaPublisherBuilder configured(Map<String, String> settings) {
    Map<String, String> producer = new HashMap<>(settings);
    String template = producer.remove(TOPIC_TEMPLATE);
    return KafkaPublisher.builder()
        .producerProperties(producer)
        .topicTemplate(KafkaSettings.topics(template));
  }

  /** {@code max.request.size}, else the producer's own default (from Kafka's config definition). */
  @Override
  public Optional<RequestLimit> requestLimit(Map<String, String> settings) {
    String key = ProducerConfig.MAX_REQUEST_SIZE_CONFIG;
    String configured = settings.get(key);
    try {
      long bytes =
          configured != null
              ? Long.parseLong(configured.trim())
              : ((Number) ProducerConfig.configDef().defaultValues().get(key)).longValue();
      return Optional.of(new RequestLimit(key, bytes));
    } catch (NumberFormatException e) {
      return Optional.empty(); // the producer refuses it, naming the setting
    }
  }
}
