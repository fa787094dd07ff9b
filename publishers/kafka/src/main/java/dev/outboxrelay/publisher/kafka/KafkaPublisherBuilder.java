package dev.outboxrelay.publisher.kafka;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.TopicTemplate;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Configures a {@link KafkaPublisher}. Producer settings pass through unchanged (TLS, SASL,
 * batching, ...); the publisher adds defaults and refuses settings that would break its guarantees.
 * Not thread-safe.
 */
public final class KafkaPublisherBuilder {
  private final Properties producer = new Properties();
  private TopicTemplate topics = KafkaSettings.topics(null);

  KafkaPublisherBuilder() {}

  /**
   * Producer settings, passed to {@link KafkaProducer} unchanged. Required: {@code
   * bootstrap.servers}. Defaults added when absent: {@code enable.idempotence=true}, {@code
   * acks=all}, {@code max.in.flight.requests.per.connection=5}, {@code linger.ms=5}, {@code
   * delivery.timeout.ms=30000}, {@code request.timeout.ms=10000}, {@code max.block.ms=10000}.
   * Serializers are always byte arrays.
   */
  public KafkaPublisherBuilder producerProperties(Map<?, ?> settings) {
    settings.forEach((k, v) -> producer.put(String.valueOf(k), String.valueOf(v)));
    return this;
  }

  /** Sets one producer setting. */
  public KafkaPublisherBuilder producerProperty(String key, Object value) {
    producer.put(key, String.valueOf(value));
    return this;
  }

  /**
   * Topic per message. Default: {@link KafkaSettings#TOPIC_TEMPLATE}, {@value
   * TopicTemplate#DEFAULT}.
   */
  public KafkaPublisherBuilder topicTemplate(TopicTemplate topics) {
    this.topics = Objects.requireNonNull(topics, "topics");
    return this;
  }

  /**
   * Creates the producer.
   *
   * @throws OutboxConfigException if {@code bootstrap.servers} is missing, or a setting weakens the
   *     guarantees ({@code acks} other than {@code all}/{@code -1}, idempotence off, more than 5
   *     requests in flight)
   */
  public KafkaPublisher build() {
    Properties p = effectiveProperties();
    return new KafkaPublisher(
        () -> new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer()), topics);
  }

  /**
   * Checks the settings as {@link #build()} and the producer would, without creating the producer
   * (see {@link KafkaPublisherFactory#validate}).
   *
   * @throws OutboxConfigException naming the first invalid setting
   */
  void validate() {
    ProducerChecks.check(effectiveProperties());
  }

  Properties effectiveProperties() {
    Properties p = new Properties();
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
    p.putAll(producer);
    p.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
    p.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
    require(p, ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, v -> !v.isBlank(), "must be set");
    require(
        p,
        ProducerConfig.ACKS_CONFIG,
        v -> v.equals("all") || v.equals("-1"),
        "must be all: a message is acknowledged only when every in-sync replica has it");
    require(
        p,
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
        v -> v.equalsIgnoreCase("true"),
        "must be true: retries must not duplicate or reorder messages of a key");
    require(
        p,
        ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
        v -> v.matches("0*[1-5]"),
        "must be between 1 and 5 for the idempotent producer");
    return p;
  }

  private static void require(
      Properties p, String key, java.util.function.Predicate<String> ok, String requirement) {
    String v = p.getProperty(key, "").trim().toLowerCase(Locale.ROOT);
    if (!ok.test(v)) {
      throw new OutboxConfigException(key, p.getProperty(key), requirement);
    }
  }
}
