package dev.outboxrelay.testing.history;

import dev.outboxrelay.testing.ReceivedMessage;
import java.util.UUID;

/**
 * One message as the broker holds it. {@code partition} is the Kafka partition or the RocketMQ
 * queue id; {@code offset} the position in it.
 */
public record Delivery(String topic, int partition, long offset, String key, UUID id) {

  /**
   * From a message read by {@link dev.outboxrelay.testing.KafkaTopicReader} or {@link
   * dev.outboxrelay.testing.RocketMqTopicReader}, whose position is {@code partition@offset}.
   *
   * @throws IllegalArgumentException if the position is not of that form or the id header is
   *     missing
   */
  public static Delivery of(ReceivedMessage m) {
    String position = m.position();
    int at = position == null ? -1 : position.indexOf('@');
    if (at < 1) {
      throw new IllegalArgumentException("position must be partition@offset, but was " + position);
    }
    String id = m.headers().get("id");
    if (id == null) {
      throw new IllegalArgumentException("message at " + position + " has no id header");
    }
    return new Delivery(
        m.topic(),
        Integer.parseInt(position.substring(0, at)),
        Long.parseLong(position.substring(at + 1)),
        m.key(),
        UUID.fromString(id));
  }
}
