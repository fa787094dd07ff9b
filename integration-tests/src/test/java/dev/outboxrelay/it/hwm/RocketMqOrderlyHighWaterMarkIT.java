package dev.outboxrelay.it.hwm;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.RocketMqDedup;
import dev.outboxrelay.it.Relays;
import dev.outboxrelay.publisher.rocketmq.RocketMqPublisher;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.RocketMqExtension;
import java.util.UUID;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * RocketMQ: the polling relay (PostgreSQL, default order) and an orderly listener with the mark,
 * taking up to 16 messages of a queue per delivery, each delivery in one transaction.
 */
class RocketMqOrderlyHighWaterMarkIT extends HighWaterMarkContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final RocketMqExtension ROCKETMQ = new RocketMqExtension();

  @Override
  DatabaseServer database() {
    return DB.server();
  }

  @Override
  boolean appliesSecondBeforeFirstCommits() {
    return true;
  }

  @Override
  void startRelayAndConsumer(Dedup dedup) throws Exception {
    String prefix = "hwm-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    ROCKETMQ.server().createTopic(prefix + "order", 4);
    Publisher publisher =
        RocketMqPublisher.builder()
            .namesrvAddr(ROCKETMQ.server().nameServerAddress())
            .topicTemplate(TopicTemplate.of(prefix + TopicTemplate.PLACEHOLDER))
            .build();
    closeables.add(publisher);
    Relay relay = Relays.polling("hwm", dataSource, publisher);
    closeables.add(relay::close);
    DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(prefix + "consumer");
    consumer.setNamesrvAddr(ROCKETMQ.server().nameServerAddress());
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.setSuspendCurrentQueueTimeMillis(200);
    consumer.setConsumeMessageBatchMaxSize(16);
    consumer.subscribe(prefix + "order", "*");
    consumer.setMessageListener(
        RocketMqDedup.orderly(
            dedup, (c, m) -> Inversions.effect(c, RocketMqDedup.identity(m).id())));
    consumer.start();
    closeables.add(consumer::shutdown);
  }
}
