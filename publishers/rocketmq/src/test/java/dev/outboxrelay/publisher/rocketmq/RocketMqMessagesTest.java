package dev.outboxrelay.publisher.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.TopicTemplate;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

class RocketMqMessagesTest {
  private static final TopicTemplate TOPICS = TopicTemplate.of("events-${aggregatetype}");

  private static OutboxMessage order(String aggregateType) {
    return OutboxMessage.builder()
        .aggregateType(aggregateType)
        .aggregateId("o-1")
        .type("Placed")
        .payload("{}")
        .header("tenant", "acme")
        .sequence(42)
        .build();
  }

  @Test
  void mapsKeysTagTopicAndProperties() {
    OutboxMessage m = order("order");
    Message msg = RocketMqMessages.toMessage(m, TOPICS);
    assertThat(msg.getTopic()).isEqualTo("events-order");
    assertThat(msg.getKeys()).isEqualTo(m.id().toString());
    assertThat(msg.getTags()).isEqualTo("Placed");
    assertThat(msg.getBody()).isEqualTo("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(msg.getUserProperty("id")).isEqualTo(m.id().toString());
    assertThat(msg.getUserProperty("type")).isEqualTo("Placed");
    assertThat(msg.getUserProperty("aggregatetype")).isEqualTo("order");
    assertThat(msg.getUserProperty("aggregateid")).isEqualTo("o-1");
    assertThat(msg.getUserProperty("seq")).isEqualTo("42");
    assertThat(msg.getUserProperty("tenant")).isEqualTo("acme");
    assertThat(msg.getUserProperty("traceparent")).isNull();
  }

  @Test
  void anInvalidTopicFailsForGoodWithTheReason() {
    assertThatThrownBy(() -> RocketMqMessages.toMessage(order("com.acme.Order"), TOPICS))
        .isInstanceOf(NonRetriablePublishException.class)
        .hasMessageContaining(
            "topic 'events-com.acme.Order' has characters RocketMQ does not allow");
    assertThat(RocketMqMessages.topicProblem("x".repeat(128))).contains("127");
    assertThat(RocketMqMessages.topicProblem("SCHEDULE_TOPIC_XXXX")).contains("system topic");
  }

  @Test
  void whatRocketMqCannotCarryFailsForGood() {
    OutboxMessage reserved = order("order").toBuilder().header("KEYS", "x").build();
    assertThatThrownBy(() -> RocketMqMessages.toMessage(reserved, TOPICS))
        .isInstanceOf(NonRetriablePublishException.class)
        .hasMessageContaining("header 'KEYS' is a name RocketMQ reserves");
    OutboxMessage blank = order("order").toBuilder().header("note", " ").build();
    assertThatThrownBy(() -> RocketMqMessages.toMessage(blank, TOPICS))
        .isInstanceOf(NonRetriablePublishException.class)
        .hasMessageContaining("property 'note' is blank");
    OutboxMessage empty = order("order").toBuilder().payload(new byte[0]).build();
    assertThatThrownBy(() -> RocketMqMessages.toMessage(empty, TOPICS))
        .isInstanceOf(NonRetriablePublishException.class)
        .hasMessageContaining("empty");
  }
}
