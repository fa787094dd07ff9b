package dev.outboxrelay.publisher.rocketmq;

import static dev.outboxrelay.publisher.rocketmq.RocketMqPublisherBuilder.NAMESRV_ADDR;
import static dev.outboxrelay.publisher.rocketmq.RocketMqPublisherBuilder.PRODUCER_GROUP;

import dev.outboxrelay.core.OutboxConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns a validated builder into a started producer, its sender threads and the publisher. */
final class PublisherAssembly {
  private static final Logger LOG = LoggerFactory.getLogger(RocketMqPublisher.class);

  private PublisherAssembly() {}

  static RocketMqPublisher build(RocketMqPublisherBuilder b) {
    DefaultMQProducer producer = producer(b);
    try {
      producer.start();
    } catch (MQClientException e) {
      throw new OutboxConfigException(
          PRODUCER_GROUP, producer.getProducerGroup(), "could not start: " + e.getErrorMessage());
    }
    String group = producer.getProducerGroup();
    LOG.info(
        "{} - RocketMQ publisher started (name servers {}, topics {}, accepted {})",
        group,
        producer.getNamesrvAddr(),
        b.topics,
        b.accepted);
    SendStatusPolicy policy = new SendStatusPolicy(b.accepted);
    KeySender sender = new KeySender(producer, b.topics, policy, b.maxAttempts, b.retryBackoff);
    return new RocketMqPublisher(producer, sender, threads(group, b.concurrency));
  }

  /** The configured producer, not started yet. */
  static DefaultMQProducer producer(RocketMqPublisherBuilder b) {
    Map<String, String> settings = new LinkedHashMap<>(b.producer);
    String namesrv = settings.get(NAMESRV_ADDR);
    if (namesrv == null) {
      throw new OutboxConfigException(NAMESRV_ADDR, null, "must be set");
    }
    String group = settings.remove(PRODUCER_GROUP);
    Validation.group(group);
    if ((b.accessKey == null) != (b.secretKey == null)) {
      String missing = b.accessKey == null ? "accessKey" : "secretKey";
      throw new OutboxConfigException(missing, null, "must be set with the other ACL credential");
    }
    DefaultMQProducer producer =
        b.accessKey == null
            ? new DefaultMQProducer(group)
            : new DefaultMQProducer(
                group, new AclClientRPCHook(new SessionCredentials(b.accessKey, b.secretKey)));
    ProducerSettings.apply(producer, settings);
    Validation.range("maxMessageSize", producer.getMaxMessageSize(), 1, Integer.MAX_VALUE);
    Validation.range("sendMsgTimeout", producer.getSendMsgTimeout(), 1, 300_000);
    return producer;
  }

  private static ExecutorService threads(String group, int n) {
    AtomicInteger count = new AtomicInteger();
    return Executors.newFixedThreadPool(
        n,
        r -> {
          Thread t = new Thread(r, "rocketmq-publisher-" + group + "-" + count.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }
}
