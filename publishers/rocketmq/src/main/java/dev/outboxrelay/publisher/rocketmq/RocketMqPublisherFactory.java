package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.rocketmq.client.producer.SendStatus;

/**
 * {@code rocketmq}: settings {@code topic-template} (default {@value
 * RocketMqPublisherBuilder#DEFAULT_TOPIC_TEMPLATE}), {@code max-attempts}, {@code
 * retry-backoff-ms}, {@code concurrency}, {@code accept-send-statuses} (comma-separated {@code
 * SendStatus} names); every other setting is a producer setting ({@code namesrvAddr}, {@code
 * producerGroup}, {@code accessKey}, {@code secretKey}, {@code maxMessageSize}, ...), passed
 * through.
 */
public final class RocketMqPublisherFactory implements PublisherFactory {
  public static final String TOPIC_TEMPLATE = "topic-template";
  public static final String MAX_ATTEMPTS = "max-attempts";
  public static final String RETRY_BACKOFF_MS = "retry-backoff-ms";
  public static final String CONCURRENCY = "concurrency";
  public static final String ACCEPT_SEND_STATUSES = "accept-send-statuses";

  @Override
  public String name() {
    return "rocketmq";
  }

  @Override
  public Publisher create(Map<String, String> settings) {
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
    take(producer, ACCEPT_SEND_STATUSES, RocketMqPublisherFactory::statuses, b::acceptSendStatuses);
    return b.producerProperties(producer).build();
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

  private static SendStatus[] statuses(String value) {
    try {
      return Arrays.stream(value.split(","))
          .map(String::trim)
          .filter(s -> !s.isEmpty())
          .map(SendStatus::valueOf)
          .toArray(SendStatus[]::new);
    } catch (IllegalArgumentException e) {
      throw new dev.outboxrelay.core.OutboxConfigException(
          ACCEPT_SEND_STATUSES, value, "must list SendStatus names, e.g. FLUSH_DISK_TIMEOUT");
    }
  }
}
