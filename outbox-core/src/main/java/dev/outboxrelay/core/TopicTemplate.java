package dev.outboxrelay.core;

import java.util.Objects;

/**
 * Derives the topic from a message. The template's {@code ${aggregatetype}} is replaced by the
 * message's aggregate type; the default, {@code outbox.event.${aggregatetype}}, matches the default
 * of Debezium's Outbox Event Router so a consumer sees the same topic either way.
 */
public final class TopicTemplate {
  public static final String PLACEHOLDER = "${aggregatetype}";
  public static final String DEFAULT = "outbox.event." + PLACEHOLDER;

  private final String template;

  private TopicTemplate(String template) {
    this.template = template;
  }

  /** {@value #DEFAULT}. */
  public static TopicTemplate defaultTemplate() {
    return new TopicTemplate(DEFAULT);
  }

  /**
   * A template; a template without the placeholder sends every message to one topic.
   *
   * @throws OutboxConfigException if the template is null or blank
   */
  public static TopicTemplate of(String template) {
    if (template == null || template.isBlank()) {
      throw new OutboxConfigException("topicTemplate", template, "must not be blank");
    }
    return new TopicTemplate(template);
  }

  /** The topic for this message. */
  public String topicFor(OutboxMessage message) {
    return template.replace(PLACEHOLDER, message.aggregateType());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TopicTemplate t && template.equals(t.template);
  }

  @Override
  public int hashCode() {
    return Objects.hash(template);
  }

  @Override
  public String toString() {
    return template;
  }
}
