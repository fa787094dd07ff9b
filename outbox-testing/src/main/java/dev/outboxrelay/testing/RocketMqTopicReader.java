package dev.outboxrelay.testing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Reads a RocketMQ topic, every queue from its first offset to its current end, with a real pull
 * consumer that commits nothing. The key is the {@code aggregateid} user property, the headers are
 * the user properties, the position is {@code queueId@offset}. Thread-safe.
 */
// DefaultMQPullConsumer is deprecated for applications, but reading exact offsets statelessly is
// what a test reader needs, and it is still in the 5.3 client.
@SuppressWarnings("deprecation")
public final class RocketMqTopicReader implements BrokerReader {
  private static final String KEY_PROPERTY = "aggregateid";
  private static final long TIMEOUT_MS = 10_000;
  private final DefaultMQPullConsumer consumer;

  /**
   * Starts the consumer.
   *
   * @param nameServer name server address, {@code host:port}
   */
  public RocketMqTopicReader(String nameServer) {
    consumer = new DefaultMQPullConsumer("outbox-testing-reader-" + UUID.randomUUID());
    consumer.setNamesrvAddr(nameServer);
    try {
      consumer.start();
    } catch (MQClientException e) {
      throw new IllegalStateException("RocketMQ reader did not start: " + e.getErrorMessage(), e);
    }
  }

  @Override
  public synchronized List<ReceivedMessage> readAll(String topic) {
    try {
      List<MessageQueue> queues = new ArrayList<>(consumer.fetchSubscribeMessageQueues(topic));
      queues.sort(
          Comparator.comparing(MessageQueue::getBrokerName)
              .thenComparing(MessageQueue::getQueueId));
      List<ReceivedMessage> messages = new ArrayList<>();
      for (MessageQueue q : queues) {
        readQueue(q, messages);
      }
      return messages;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading " + topic, e);
    } catch (Exception e) {
      throw new IllegalStateException("could not read RocketMQ topic " + topic + ": " + e, e);
    }
  }

  private void readQueue(MessageQueue q, List<ReceivedMessage> into) throws Exception {
    long offset = consumer.minOffset(q);
    while (true) {
      PullResult r = consumer.pull(q, "*", offset, 32, TIMEOUT_MS);
      if (r.getPullStatus() != PullStatus.FOUND || r.getNextBeginOffset() <= offset) {
        return;
      }
      r.getMsgFoundList().forEach(m -> into.add(received(m)));
      offset = r.getNextBeginOffset();
    }
  }

  private static ReceivedMessage received(MessageExt m) {
    Map<String, String> headers = new LinkedHashMap<>();
    m.getProperties()
        .forEach(
            (k, v) -> {
              if (!MessageConst.STRING_HASH_SET.contains(k)) {
                headers.put(k, v);
              }
            });
    return new ReceivedMessage(
        m.getTopic(),
        m.getUserProperty(KEY_PROPERTY),
        headers,
        m.getBody(),
        m.getQueueId() + "@" + m.getQueueOffset());
  }

  @Override
  public void close() {
    consumer.shutdown();
  }
}
