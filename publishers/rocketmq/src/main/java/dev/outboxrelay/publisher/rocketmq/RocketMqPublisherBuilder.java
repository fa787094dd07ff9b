package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;

/**
 * Configures a {@link RocketMqPublisher}. Producer settings pass through to {@link
 * DefaultMQProducer} by name (any {@code setXxx} of the client, e.g. {@code sendMsgTimeout}, {@code
 * useTLS}, {@code namespace}); the publisher adds defaults. Validates eagerly, naming the setting
 * and the bad value (secrets masked). Not thread-safe.
 */
public final class RocketMqPublisherBuilder {
  /** The default topic template, {@link RocketMqSettings#TOPIC_TEMPLATE}'s. */
  public static final String DEFAULT_TOPIC_TEMPLATE =
      RocketMqSettings.TOPIC_TEMPLATE.defaultValue();

  /** The default producer group. */
  public static final String DEFAULT_PRODUCER_GROUP = "outbox-relay";

  static final String NAMESRV_ADDR = "namesrvAddr";
  static final String PRODUCER_GROUP = "producerGroup";
  static final String ACCESS_KEY = "accessKey";
  static final String SECRET_KEY = "secretKey";

  final Map<String, String> producer = new LinkedHashMap<>();
  String accessKey;
  String secretKey;
  TopicTemplate topics = TopicTemplate.of(DEFAULT_TOPIC_TEMPLATE);
  int maxAttempts = RocketMqSettings.MAX_ATTEMPTS.defaultValue();
  Duration retryBackoff = Duration.ofMillis(RocketMqSettings.RETRY_BACKOFF_MS.defaultValue());
  int concurrency = RocketMqSettings.CONCURRENCY.defaultValue();
  final Set<SendStatus> accepted = EnumSet.of(SendStatus.SEND_OK);

  RocketMqPublisherBuilder() {
    producer.put(PRODUCER_GROUP, DEFAULT_PRODUCER_GROUP);
  }

  /** Name server addresses, {@code host:port;host:port}. Required; no default. */
  public RocketMqPublisherBuilder namesrvAddr(String addresses) {
    return producerProperty(NAMESRV_ADDR, addresses);
  }

  /** The producer group. Default: {@value #DEFAULT_PRODUCER_GROUP}. */
  public RocketMqPublisherBuilder producerGroup(String group) {
    return producerProperty(PRODUCER_GROUP, group);
  }

  /**
   * Largest payload sent, in bytes; a larger message fails non-retriably and parks its key. Keep it
   * at or below the broker's {@code maxMessageSize}. Default: 4194304 (4 MiB, the client's and the
   * broker's default).
   */
  public RocketMqPublisherBuilder maxMessageSize(int bytes) {
    Validation.range("maxMessageSize", bytes, 1, Integer.MAX_VALUE);
    return producerProperty("maxMessageSize", bytes);
  }

  /** Timeout of one send attempt. Default: 3 s (the client's {@code sendMsgTimeout}). */
  public RocketMqPublisherBuilder sendTimeout(Duration timeout) {
    Validation.duration("sendTimeout", timeout, Duration.ofMillis(1), Duration.ofMinutes(5));
    return producerProperty("sendMsgTimeout", timeout.toMillis());
  }

  /** ACL credentials, sent through an {@code AclClientRPCHook}. Default: none. */
  public RocketMqPublisherBuilder credentials(String accessKey, String secretKey) {
    this.accessKey = Validation.text(ACCESS_KEY, accessKey);
    this.secretKey = Validation.text(SECRET_KEY, secretKey);
    return this;
  }

  /** Sets one producer setting by its client name ({@code accessKey}/{@code secretKey} too). */
  public RocketMqPublisherBuilder producerProperty(String key, Object value) {
    String v = Validation.text(key, value == null ? null : String.valueOf(value));
    if (ACCESS_KEY.equals(key)) {
      accessKey = v;
    } else if (SECRET_KEY.equals(key)) {
      secretKey = v;
    } else if (ProducerSettings.setter(key).isEmpty()) {
      // Never the value: an unknown key may be a misspelled secret ('secertKey').
      throw new OutboxConfigException(key, "is not a setting of RocketMQ's DefaultMQProducer");
    } else {
      producer.put(key, v);
    }
    return this;
  }

  /** Sets every entry as by {@link #producerProperty(String, Object)}. */
  public RocketMqPublisherBuilder producerProperties(Map<?, ?> settings) {
    settings.forEach((k, v) -> producerProperty(String.valueOf(k), v));
    return this;
  }

  /** Topic per message. Default: {@code outbox-event-${aggregatetype}}. */
  public RocketMqPublisherBuilder topicTemplate(TopicTemplate topics) {
    Validation.template(Objects.requireNonNull(topics, "topics"));
    this.topics = topics;
    return this;
  }

  /**
   * Attempts per message on its queue before the publisher reports a failure (1–10). Default: 3
   * ({@link RocketMqSettings#MAX_ATTEMPTS}).
   */
  public RocketMqPublisherBuilder maxAttempts(int attempts) {
    this.maxAttempts = RocketMqSettings.MAX_ATTEMPTS.check(attempts);
    return this;
  }

  /**
   * First delay between attempts (1 ms – 10 s); doubles per attempt, up to 2 s, jittered. Default:
   * 100 ms ({@link RocketMqSettings#RETRY_BACKOFF_MS}).
   */
  public RocketMqPublisherBuilder retryBackoff(Duration backoff) {
    Validation.duration(
        "retryBackoff",
        backoff,
        Duration.ofMillis(RocketMqSettings.RETRY_BACKOFF_MIN_MS),
        Duration.ofMillis(RocketMqSettings.RETRY_BACKOFF_MAX_MS));
    this.retryBackoff = backoff;
    return this;
  }

  /**
   * How many keys are sent at the same time (threads, 1–64). Default: 4 ({@link
   * RocketMqSettings#CONCURRENCY}).
   */
  public RocketMqPublisherBuilder concurrency(int keys) {
    this.concurrency = RocketMqSettings.CONCURRENCY.check(keys);
    return this;
  }

  /**
   * Send statuses besides {@code SEND_OK} counted as acknowledged. Default: none, so {@code
   * FLUSH_DISK_TIMEOUT}, {@code FLUSH_SLAVE_TIMEOUT} and {@code SLAVE_NOT_AVAILABLE} (stored, but
   * not flushed or replicated as a SYNC_FLUSH or SYNC_MASTER broker promises) are retried.
   */
  public RocketMqPublisherBuilder acceptSendStatuses(SendStatus... statuses) {
    accepted.addAll(List.of(statuses));
    return this;
  }

  /**
   * Starts the producer.
   *
   * @throws OutboxConfigException if {@code namesrvAddr} is missing, a setting is invalid, or the
   *     producer cannot start
   */
  public RocketMqPublisher build() {
    return PublisherAssembly.build(this);
  }
}
