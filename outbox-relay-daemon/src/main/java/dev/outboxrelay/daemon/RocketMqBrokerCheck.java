package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.rocketmq.RocketMqPublisherBuilder;
import dev.outboxrelay.publisher.rocketmq.RocketMqPublisherFactory;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.QueryResult;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

/**
 * Asks the brokers' message index by key: the publisher sets each message's RocketMQ key to its
 * outbox id, and the broker indexes keys by default ({@code messageIndexEnable=true}), so one
 * {@code queryMessage(topic, id, ...)} per message tells whether it was stored. The query runs on a
 * producer client of its own (group {@value #GROUP}, the publisher's name servers, namespace and
 * ACL credentials), which sends nothing. One round trip per message: fit for windows of thousands
 * of messages, not millions. A broker with {@code messageIndexEnable=false} finds nothing, so every
 * message would look missing: keep the index on where the loop runs.
 */
final class RocketMqBrokerCheck implements BrokerCheck {
  static final String GROUP = "outbox-reconcile";
  private static final String ACCESS_KEY = "accessKey";
  private static final String SECRET_KEY = "secretKey";

  private final Map<String, String> settings;

  RocketMqBrokerCheck(Map<String, String> settings) {
    this.settings = settings;
  }

  @Override
  public TopicTemplate topics() {
    String template = settings.get(RocketMqPublisherFactory.TOPIC_TEMPLATE);
    return TopicTemplate.of(
        template == null ? RocketMqPublisherBuilder.DEFAULT_TOPIC_TEMPLATE : template);
  }

  @Override
  public Set<UUID> present(
      Map<String, List<OutboxMessage>> byTopic, Instant from, Consumer<String> progress) {
    Set<UUID> seen = new HashSet<>();
    DefaultMQProducer client = client();
    try {
      client.start();
      long begin = from.toEpochMilli();
      long end = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(1);
      long asked = 0;
      for (Map.Entry<String, List<OutboxMessage>> topic : byTopic.entrySet()) {
        for (OutboxMessage m : topic.getValue()) {
          if (stored(client, topic.getKey(), m.id(), begin, end)) {
            seen.add(m.id());
          }
          if (++asked % 1000 == 0) {
            progress.accept("queried " + asked + " message key(s)");
          }
        }
      }
      progress.accept("queried " + asked + " message key(s) on " + byTopic.size() + " topic(s)");
      return seen;
    } catch (MQClientException e) {
      throw new OutboxException("RocketMQ query by key failed: " + e.getErrorMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OutboxException("interrupted while querying RocketMQ", e);
    } finally {
      client.shutdown();
    }
  }

  private static boolean stored(
      DefaultMQProducer client, String topic, UUID id, long begin, long end)
      throws MQClientException, InterruptedException {
    try {
      QueryResult r = client.queryMessage(topic, id.toString(), 8, begin, end);
      // The client keeps only messages whose keys contain this one (hash slots collide).
      for (MessageExt m : r.getMessageList()) {
        if (m.getKeys() != null && List.of(m.getKeys().split(" ")).contains(id.toString())) {
          return true;
        }
      }
      return false;
    } catch (MQClientException e) {
      if (e.getResponseCode() == ResponseCode.NO_MESSAGE) {
        return false;
      }
      throw e;
    }
  }

  private DefaultMQProducer client() {
    String accessKey = settings.get(ACCESS_KEY);
    String secretKey = settings.get(SECRET_KEY);
    DefaultMQProducer p =
        accessKey == null || secretKey == null
            ? new DefaultMQProducer(GROUP)
            : new DefaultMQProducer(
                GROUP, new AclClientRPCHook(new SessionCredentials(accessKey, secretKey)));
    // Its own client instance: never the publisher's, whatever the publisher's hook.
    p.setInstanceName(GROUP + "-" + UUID.randomUUID());
    if (settings.containsKey("namesrvAddr")) {
      p.setNamesrvAddr(settings.get("namesrvAddr"));
    }
    if (settings.containsKey("namespace")) {
      p.setNamespace(settings.get("namespace"));
    }
    return p;
  }
}
