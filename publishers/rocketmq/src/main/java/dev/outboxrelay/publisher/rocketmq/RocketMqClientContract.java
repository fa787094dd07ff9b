package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.TopicTemplate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;

/**
 * The pieces of this publisher that another sender of the same broker message contract reuses (the
 * transactional sender of {@code outbox-rocketmq-transactional}): the mapping of an outbox message
 * to a RocketMQ {@link Message}, the topic template and producer group checks, and the producer
 * settings passed through by name. Stateless; thread-safe.
 */
public final class RocketMqClientContract {
  private RocketMqClientContract() {}

  /**
   * The RocketMQ message {@link RocketMqPublisher} sends for {@code message}: topic from the
   * template, keys = id, tag = type, the contract's user properties (see this module's README).
   *
   * @throws NonRetriablePublishException if RocketMQ can never carry it (invalid topic name, empty
   *     payload, a reserved or blank property)
   */
  public static Message toMessage(OutboxMessage message, TopicTemplate topics) {
    return RocketMqMessages.toMessage(message, topics);
  }

  /**
   * Returns {@code topics} if its fixed part gives valid RocketMQ topic names.
   *
   * @throws OutboxConfigException naming {@code topicTemplate} and the template otherwise
   */
  public static TopicTemplate requireValidTemplate(TopicTemplate topics) {
    Validation.template(topics);
    return topics;
  }

  /**
   * Returns {@code group} if RocketMQ accepts it as a producer group.
   *
   * @throws OutboxConfigException naming {@code producerGroup} and the value otherwise
   */
  public static String requireValidGroup(String group) {
    Validation.group(Validation.text(RocketMqPublisherBuilder.PRODUCER_GROUP, group));
    return group;
  }

  /**
   * Applies settings by their client bean names ({@code sendMsgTimeout=3000} calls {@code
   * setSendMsgTimeout(3000)}), as {@link RocketMqPublisherBuilder#producerProperty} does.
   *
   * @throws OutboxConfigException naming the key (and the value, masked if secret) of a setting the
   *     producer does not have or refuses
   */
  public static void applyProducerSettings(DefaultMQProducer producer, Map<String, ?> settings) {
    Map<String, String> text = new LinkedHashMap<>();
    settings.forEach((k, v) -> text.put(k, Validation.text(k, v == null ? null : v.toString())));
    ProducerSettings.apply(producer, text);
  }
}
