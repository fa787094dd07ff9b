package dev.outboxrelay.core;

import java.time.Duration;
import java.util.List;

/**
 * The settings both relays have, declared once; {@code PollingSettings} and {@code CdcSettings}
 * list them with their own. See {@link Setting}.
 */
public final class RelaySettings {
  private static final java.util.regex.Pattern DEAD_LETTER_TOPIC_NAME =
      java.util.regex.Pattern.compile("[a-zA-Z0-9._-]{1,127}");

  /** Rows per claim (polling) or per Debezium batch (CDC); bounds duplicates per crash. */
  public static final Setting<Integer> BATCH_SIZE =
      Setting.integer(
          "batch-size", 500, 1, 10_000, "rows per claim and publish; bounds duplicates per crash");

  /** Longest wait for the publisher's acknowledgements of one batch. */
  public static final Setting<Duration> PUBLISH_TIMEOUT =
      Setting.duration(
          "publish-timeout",
          Duration.ofSeconds(60),
          Duration.ofMillis(100),
          "longest wait for one batch's acknowledgements");

  /** First retry delay of a failing key or an outage; doubled with jitter. */
  public static final Setting<Duration> BACKOFF_INITIAL =
      Setting.duration(
          "backoff-initial",
          Duration.ofMillis(100),
          Duration.ofMillis(1),
          "first retry delay of a failing key or an outage, doubled with jitter");

  /** Upper bound of the retry delay; at least {@link #BACKOFF_INITIAL}. */
  public static final Setting<Duration> BACKOFF_MAX =
      Setting.duration(
          "backoff-max",
          Duration.ofSeconds(30),
          Duration.ofMillis(1),
          "upper bound of the retry delay, at least backoff-initial");

  /**
   * Where a parked key's message is copied once (off when unset): a topic name of 1 to 127
   * characters from {@code [a-zA-Z0-9._-]}, a name Kafka accepts (RocketMQ also refuses {@code .};
   * its publisher then fails each copy, counted and retried). See {@link MessageContract} for the
   * copy's headers.
   */
  public static final Setting<String> DEAD_LETTER_TOPIC =
      Setting.text(
          "dead-letter-topic",
          null,
          t -> DEAD_LETTER_TOPIC_NAME.matcher(t).matches() && !t.equals(".") && !t.equals(".."),
          "must be 1 to 127 characters from [a-zA-Z0-9._-]",
          "topic a parked message is copied to once; off when unset");

  /**
   * Refuses a dead-letter topic (null: off) that {@code publisher} says its broker would refuse
   * ({@link Publisher#topicProblem}), naming the builder's {@code deadLetterTopic}: a name no copy
   * could ever reach fails the build, not every copy later.
   *
   * @throws OutboxConfigException naming the setting, the topic and the broker's rule
   */
  public static void requireSendable(Publisher publisher, String deadLetterTopic) {
    if (deadLetterTopic != null) {
      publisher
          .topicProblem(deadLetterTopic)
          .ifPresent(
              problem -> {
                throw new OutboxConfigException("deadLetterTopic", deadLetterTopic, problem);
              });
    }
  }

  /** The four above (the dead-letter topic is listed by each relay that supports it). */
  public static final List<Setting<?>> ALL =
      List.of(BATCH_SIZE, PUBLISH_TIMEOUT, BACKOFF_INITIAL, BACKOFF_MAX);

  private RelaySettings() {}
}
