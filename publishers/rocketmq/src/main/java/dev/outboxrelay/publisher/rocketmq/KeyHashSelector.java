package dev.outboxrelay.publisher.rocketmq;

import java.util.List;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Picks the queue of a key: a stable hash of the aggregateid over the topic's writable queues. The
 * client lists them ordered by broker name and queue id, and {@link String#hashCode()} is fixed by
 * the language, so every relay instance picks the same queue for a key while the queue count stays
 * the same.
 */
final class KeyHashSelector implements MessageQueueSelector {
  static final KeyHashSelector INSTANCE = new KeyHashSelector();

  private KeyHashSelector() {}

  @Override
  public MessageQueue select(List<MessageQueue> queues, Message message, Object key) {
    return queues.get(index((String) key, queues.size()));
  }

  static int index(String key, int queues) {
    int h = key.hashCode();
    return Math.floorMod(h ^ (h >>> 16), queues);
  }
}
