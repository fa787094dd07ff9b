package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
import org.apache.rocketmq.common.topic.TopicValidator;

/** Eager checks for the builder; each names the setting and the bad value. */
final class Validation {
  private static final int GROUP_MAX_LENGTH = 255;

  private Validation() {}

  static int range(String key, int value, int min, int max) {
    if (value < min || value > max) {
      throw new OutboxConfigException(key, value, "must be between " + min + " and " + max);
    }
    return value;
  }

  static void duration(String key, Duration value, Duration min, Duration max) {
    if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw new OutboxConfigException(key, value, "must be between " + min + " and " + max);
    }
  }

  static String text(String key, String value) {
    if (key == null || key.isBlank()) {
      throw new OutboxConfigException("producer setting name", key, "must not be blank");
    }
    if (value == null || value.isBlank()) {
      throw new OutboxConfigException(key, value, "must not be blank");
    }
    return value.trim();
  }

  /** The template's fixed part must already make a valid topic name. */
  static void template(TopicTemplate topics) {
    String sample = topics.toString().replace(TopicTemplate.PLACEHOLDER, "a");
    String problem = RocketMqMessages.topicProblem(sample);
    if (problem != null) {
      throw new OutboxConfigException(
          "topicTemplate",
          topics.toString(),
          "must give valid topic names, but '" + sample + "' " + problem);
    }
  }

  static void group(String group) {
    if (group.length() > GROUP_MAX_LENGTH || TopicValidator.isTopicOrGroupIllegal(group)) {
      throw new OutboxConfigException(
          RocketMqPublisherBuilder.PRODUCER_GROUP,
          group,
          "must be at most " + GROUP_MAX_LENGTH + " characters of [%|a-zA-Z0-9_-]");
    }
  }
}
