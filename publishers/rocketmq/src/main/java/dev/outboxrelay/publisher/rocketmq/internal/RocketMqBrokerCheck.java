package dev.outboxrelay.publisher.rocketmq.internal;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
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
 * The RocketMQ publisher's {@link BrokerCheck}. {@link #present} asks the brokers' message index by
 * key: the publisher sets each message's RocketMQ key to its outbox id, and the broker indexes keys
 * by default ({@code messageIndexEnable=true}), so one {@code queryMessage(topic, id, ...)} per
 * message tells whether it was stored. The query runs on a producer client of its own (group
 * {@value #GROUP}, the publisher's name servers, namespace and ACL credentials), which sends
 * nothing. One round trip per message: fit for windows of thousands of messages, not millions. A
 * broker with {@code messageIndexEnable=false} finds nothing, so every message would look missing:
 * keep the index on where the loop runs. {@link #probe} connects to a name server ({@link
 * NameServerProbe}).
 */
public final class RocketMqBrokerCheck implements BrokerCheck {
  static final String GROUP = "outbox-reconcile";

  private final String namesrvAddr; // null: the client's default lookup
  private final String namespace;
  private final String accessKey;
  private final String secretKey;
  private final TopicTemplate topics;

  /**
   * @param settings the publisher's settings: {@code namesrvAddr}, {@code namespace}, {@code
   *     accessKey} and {@code secretKey} are used
   * @param topics the publisher's topic template
   */
  public RocketMqBrokerCheck(Map<String, String> settings, TopicTemplate topics) {
    this.namesrvAddr = settings.get("namesrvAddr");
    this.namespace = settings.get("namespace");
    this.accessKey = settings.get("accessKey");
    this.secretKey = settings.get("secretKey");
    this.topics = topics;
  }

  @Override
  public TopicTemplate topics() {
    return topics;
  }

  /** No answer without {@code namesrvAddr}: the publisher cannot have started either. */
  @Override
  public Probe probe(Duration timeout) {
    return namesrvAddr == null
        ? Probe.noAnswer("namesrvAddr is not set")
        : NameServerProbe.check(namesrvAddr, timeout);
  }

  @Override
  public String target() {
    return "rocketmq namesrvAddr " + namesrvAddr;
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
    DefaultMQProducer p =
        accessKey == null || secretKey == null
            ? new DefaultMQProducer(GROUP)
            : new DefaultMQProducer(
                GROUP, new AclClientRPCHook(new SessionCredentials(accessKey, secretKey)));
    // Its own client instance: never the publisher's, whatever the publisher's hook.
    p.setInstanceName(GROUP + "-" + UUID.randomUUID());
    if (namesrvAddr != null) {
      p.setNamesrvAddr(namesrvAddr);
    }
    if (namespace != null) {
      p.setNamespace(namespace);
    }
    return p;
  }
}
