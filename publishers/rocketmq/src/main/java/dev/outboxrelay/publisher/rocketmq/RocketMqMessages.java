package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.TopicTemplate;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.topic.TopicValidator;

/**
 * Maps an outbox message to a RocketMQ {@link Message}: topic from the template, keys = message id,
 * tag = type, user properties per {@link MessageContract} plus {@value #PROPERTY_AGGREGATE_ID}.
 * What RocketMQ can never carry fails here, before anything is sent, with a {@link
 * NonRetriablePublishException} saying why.
 */
final class RocketMqMessages {
  /** The user property holding the ordering key (RocketMQ's own message key is the id). */
  static final String PROPERTY_AGGREGATE_ID = "aggregateid";

  static final int TOPIC_MAX_LENGTH = 127;
  private static final Pattern TOPIC = Pattern.compile("[%|a-zA-Z0-9_-]+");

  private RocketMqMessages() {}

  static Message toMessage(OutboxMessage m, TopicTemplate topics) {
    String topic = topics.topicFor(m);
    String invalid = topicProblem(topic);
    if (invalid != null) {
      throw refused(m, "topic '" + topic + "' " + invalid);
    }
    if (m.payloadSize() == 0) {
      throw refused(m, "the payload is empty, and RocketMQ refuses empty message bodies");
    }
    Message msg = new Message(topic, m.type(), m.id().toString(), m.payload());
    // User headers first, so that the contract's properties win a clash of names.
    for (Map.Entry<String, String> h : m.headers().entrySet()) {
      if (MessageConst.STRING_HASH_SET.contains(h.getKey())) {
        throw refused(m, "header '" + h.getKey() + "' is a name RocketMQ reserves for itself");
      }
      put(m, msg, h.getKey(), h.getValue());
    }
    put(m, msg, MessageContract.HEADER_ID, m.id().toString());
    put(m, msg, MessageContract.HEADER_TYPE, m.type());
    put(m, msg, MessageContract.HEADER_AGGREGATE_TYPE, m.aggregateType());
    put(m, msg, PROPERTY_AGGREGATE_ID, m.aggregateId());
    m.sequence().ifPresent(seq -> put(m, msg, MessageContract.HEADER_SEQUENCE, Long.toString(seq)));
    m.traceparent().ifPresent(t -> put(m, msg, MessageContract.HEADER_TRACEPARENT, t));
    return msg;
  }

  /** Null if RocketMQ accepts this topic name for sending, else what is wrong with it. */
  static String topicProblem(String topic) {
    if (topic.length() > TOPIC_MAX_LENGTH) {
      return "is longer than RocketMQ's limit of " + TOPIC_MAX_LENGTH + " characters";
    }
    if (!TOPIC.matcher(topic).matches()) {
      return "has characters RocketMQ does not allow in topic names (only [%|a-zA-Z0-9_-])";
    }
    if (TopicValidator.isSystemTopic(topic) || TopicValidator.isNotAllowedSendTopic(topic)) {
      return "is a RocketMQ system topic";
    }
    return null;
  }

  private static void put(OutboxMessage m, Message msg, String name, String value) {
    // Properties travel as name\u0001value\u0002; a blank value is dropped by the client.
    if (value.isBlank() || value.indexOf('\u0001') >= 0 || value.indexOf('\u0002') >= 0) {
      throw refused(
          m,
          "property '" + name + "' is blank or holds \\u0001/\\u0002, which RocketMQ cannot carry");
    }
    msg.putUserProperty(name, value);
  }

  private static NonRetriablePublishException refused(OutboxMessage m, String why) {
    return new NonRetriablePublishException(
        "RocketMQ cannot take message " + m.id() + ": " + why, null);
  }
}
