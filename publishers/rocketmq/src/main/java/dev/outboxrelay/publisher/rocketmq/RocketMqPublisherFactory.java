package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.rocketmq.internal.RocketMqBrokerCheck;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code rocketmq}: the settings of {@link RocketMqSettings} ({@code topic-template}, {@code
 * max-attempts}, {@code retry-backoff-ms}, {@code concurrency}, {@code accept-send-statuses},
 * comma-separated {@code SendStatus} names); every other setting is a producer setting ({@code
 * namesrvAddr}, {@code producerGroup}, {@code accessKey}, {@code secretKey}, {@code
 * maxMessageSize}, ...), passed through.
 */
public final class RocketMqPublisherFactory implements PublisherFactory {
  /** The key of {@link RocketMqSettings#TOPIC_TEMPLATE}. */
  public static final String TOPIC_TEMPLATE = RocketMqSettings.TOPIC_TEMPLATE.key();

  /** The key of {@link RocketMqSettings#MAX_ATTEMPTS}. */
  public static final String MAX_ATTEMPTS = RocketMqSettings.MAX_ATTEMPTS.key();

  /** The key of {@link RocketMqSettings#RETRY_BACKOFF_MS}. */
  public static final String RETRY_BACKOFF_MS = RocketMqSettings.RETRY_BACKOFF_MS.key();

  /** The key of {@link RocketMqSettings#CONCURRENCY}. */
  public static final String CONCURRENCY = RocketMqSettings.CONCURRENCY.key();

  /** The key of {@link RocketMqSettings#ACCEPT_SEND_STATUSES}. */
  public static final String ACCEPT_SEND_STATUSES = RocketMqSettings.ACCEPT_SEND_STATUSES.key();

  /** The producer setting that bounds a message's size. */
  public static final String MAX_MESSAGE_SIZE = "maxMessageSize";

  /**
   * The RocketMQ producer's default {@code maxMessageSize}, 4 MiB ({@code
   * RocketMqPublisherFactoryTest} compares it with the client's).
   */
  static final int DEFAULT_MAX_MESSAGE_SIZE = 4 * 1024 * 1024;

  @Override
  public String name() {
    return "rocketmq";
  }

  /** {@code maxMessageSize}, else the producer's default. */
  @Override
  public Optional<RequestLimit> requestLimit(Map<String, String> settings) {
    String configured = settings.get(MAX_MESSAGE_SIZE);
    try {
      long bytes =
          configured != null ? Long.parseLong(configured.trim()) : DEFAULT_MAX_MESSAGE_SIZE;
      return Optional.of(new RequestLimit(MAX_MESSAGE_SIZE, bytes));
    } catch (NumberFormatException e) {
      return Optional.empty(); // the producer refuses it, naming the setting
    }
  }

  @Override
  public Publisher create(Map<String, String> settings) {
    return configured(settings).build();
  }

  /**
   * Every setting as {@link #create} checks it, and the producer configured but not started: no
   * thread, no connection to a name server.
   */
  @Override
  public void validate(Map<String, String> settings) {
    PublisherAssembly.producer(configured(settings));
  }

  /** RocketMQ's rule for topic names, as {@link RocketMqPublisher#topicProblem}. */
  @Override
  public Optional<String> topicProblem(String topic) {
    return Optional.ofNullable(RocketMqMessages.topicProblem(topic));
  }

  /**
   * Asks the brokers' message index by key (the outbox id), one query per message, on a client of
   * its own (group {@code outbox-reconcile}); probes by connecting to a name server. Both use the
   * publisher's {@code namesrvAddr}, {@code namespace} and ACL credentials.
   */
  @Override
  public Optional<BrokerCheck> brokerCheck(Map<String, String> settings) {
    String template = settings.get(TOPIC_TEMPLATE);
    TopicTemplate topics =
        TopicTemplate.of(
            template == null ? RocketMqSettings.TOPIC_TEMPLATE.defaultValue() : template.trim());
    return Optional.of(new RocketMqBrokerCheck(settings, topics));
  }

  private static RocketMqPublisherBuilder configured(Map<String, String> settings) {
    Map<String, String> producer = new HashMap<>(settings);
    RocketMqPublisherBuilder b = RocketMqPublisher.builder();
    take(producer, TOPIC_TEMPLATE, TopicTemplate::of, b::topicTemplate);
    take(producer, MAX_ATTEMPTS, v -> number(MAX_ATTEMPTS, v), b::maxAttempts);
    take(producer, CONCURRENCY, v -> number(CONCURRENCY, v), b::concurrency);
    take(
        producer,
        RETRY_BACKOFF_MS,
        v -> Duration.ofMillis(number(RETRY_BACKOFF_MS, v)),
        b::retryBackoff);
    take(
        producer,
        ACCEPT_SEND_STATUSES,
        v ->
            RocketMqSettings.statuses(
                RocketMqSettings.ACCEPT_SEND_STATUSES.check(ACCEPT_SEND_STATUSES, v)),
        b::acceptSendStatuses);
    return b.producerProperties(producer);
  }

  private static <T> void take(
      Map<String, String> settings,
      String key,
      Function<String, T> parse,
      java.util.function.Consumer<T> set) {
    String value = settings.remove(key);
    if (value != null) {
      set.accept(parse.apply(value.trim()));
    }
  }

  private static int number(String key, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new dev.outboxrelay.core.OutboxConfigException(key, value, "must be a whole number");
    }
  }
}
