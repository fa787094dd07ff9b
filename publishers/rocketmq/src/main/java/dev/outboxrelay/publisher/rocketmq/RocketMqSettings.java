package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.Setting;
import dev.outboxrelay.core.TopicTemplate;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.rocketmq.client.producer.SendStatus;

/**
 * The RocketMQ publisher's own settings, declared once: {@link RocketMqPublisherBuilder} and {@link
 * RocketMqPublisherFactory} take keys, defaults and rules from here (see {@link Setting}). Every
 * other setting is a producer setting, passed to the client by name.
 */
public final class RocketMqSettings {
  /** Smallest {@link #RETRY_BACKOFF_MS}, in milliseconds. */
  static final int RETRY_BACKOFF_MIN_MS = 1;

  /** Largest {@link #RETRY_BACKOFF_MS}, in milliseconds. */
  static final int RETRY_BACKOFF_MAX_MS = 10_000;

  private static final Set<String> STATUSES =
      Arrays.stream(SendStatus.values()).map(Enum::name).collect(Collectors.toUnmodifiableSet());

  /** Topic per message; RocketMQ topic names cannot hold Debezium's dots. */
  public static final Setting<String> TOPIC_TEMPLATE =
      Setting.text(
          "topic-template",
          "outbox-event-" + TopicTemplate.PLACEHOLDER,
          t -> !t.isBlank(),
          "must not be blank",
          "topic per message, over ${aggregatetype}; valid RocketMQ topic names");

  /** Attempts per message on its queue within one publish call. */
  public static final Setting<Integer> MAX_ATTEMPTS =
      Setting.integer("max-attempts", 3, 1, 10, "attempts per message on its queue");

  /** Delay before the second attempt, in milliseconds; doubles, at most 2 s, jittered. */
  public static final Setting<Integer> RETRY_BACKOFF_MS =
      Setting.integer(
          "retry-backoff-ms",
          100,
          RETRY_BACKOFF_MIN_MS,
          RETRY_BACKOFF_MAX_MS,
          "first delay between attempts, in ms; doubles, at most 2 s");

  /** Keys sent at the same time (sender threads). */
  public static final Setting<Integer> CONCURRENCY =
      Setting.integer("concurrency", 4, 1, 64, "keys sent at the same time (threads)");

  /** Comma-separated {@link SendStatus} names counted as acknowledged besides SEND_OK; none. */
  public static final Setting<String> ACCEPT_SEND_STATUSES =
      Setting.text(
          "accept-send-statuses",
          null,
          RocketMqSettings::isStatusList,
          "must list SendStatus names, e.g. FLUSH_DISK_TIMEOUT",
          "SendStatus names besides SEND_OK counted as acknowledged");

  /** Every setting above, in the README's order. */
  public static final List<Setting<?>> ALL =
      List.of(TOPIC_TEMPLATE, MAX_ATTEMPTS, RETRY_BACKOFF_MS, CONCURRENCY, ACCEPT_SEND_STATUSES);

  private RocketMqSettings() {}

  /** The statuses of a checked {@link #ACCEPT_SEND_STATUSES} value. */
  static SendStatus[] statuses(String list) {
    return names(list).map(SendStatus::valueOf).toArray(SendStatus[]::new);
  }

  private static boolean isStatusList(String list) {
    return names(list).allMatch(STATUSES::contains);
  }

  private static java.util.stream.Stream<String> names(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty());
  }
}
