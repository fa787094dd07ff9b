package dev.outboxrelay.dedup;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.RocketMqExtension;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.MessageListener;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The RocketMQ listener wrappers against a real name server, broker and MariaDB. */
class RocketMqDedupIT extends DbFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();
  @RegisterExtension static final RocketMqExtension ROCKETMQ = new RocketMqExtension();
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final String topic = "dedup-" + UUID.randomUUID().toString().substring(0, 8);
  private final Set<String> failOnce = ConcurrentHashMap.newKeySet();
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicInteger stale = new AtomicInteger();
  private final AtomicInteger duplicates = new AtomicInteger();
  private final List<DefaultMQPushConsumer> consumers = new ArrayList<>();
  private DefaultMQProducer producer;
  private long seq;

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @BeforeEach
  void startProducer() throws Exception {
    ROCKETMQ.server().createTopic(topic, 2);
    producer = new DefaultMQProducer("producer-" + topic);
    producer.setNamesrvAddr(ROCKETMQ.server().nameServerAddress());
    producer.start();
  }

  @AfterEach
  void stopClients() {
    consumers.forEach(DefaultMQPushConsumer::shutdown);
    producer.shutdown();
  }

  @Test
  void orderlyListenerHasOneEffectPerIdAndSuspendsOnFailure() throws Exception {
    Dedup dedup = dedup("orderly-" + topic, true);
    start("orderly-" + topic, RocketMqDedup.orderly(dedup, handler()));
    List<String> ids = sendWithDuplicates();

    await().atMost(TIMEOUT).until(() -> distinctEffects() == 20);
    send("order-0", newId(), 1); // a replay of an old sequence with a fresh id
    await().atMost(TIMEOUT).until(() -> stale.get() == 1);

    assertThat(effects()).isEqualTo(20);
    assertThat(failures).hasValue(1);
    assertThat(ids).allMatch(id -> store.isProcessed(dedup.group(), id));
  }

  @Test
  void concurrentListenerHasOneEffectPerIdAndRedeliversFailures() throws Exception {
    Dedup dedup = dedup("concurrent-" + topic, false);
    start("concurrent-" + topic, RocketMqDedup.concurrently(dedup, handler(), 1));
    sendWithDuplicates();

    await().atMost(TIMEOUT).until(() -> distinctEffects() == 20);

    assertThat(effects()).isEqualTo(20);
    assertThat(failures).hasValue(1);
  }

  @Test
  void orderlyBatchesHaveOneEffectPerIdAndAFailingMessageCommitsThoseBeforeItFirst()
      throws Exception {
    String group = "orderly-batch-" + topic;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      ids.add(newId());
      send("order-7", ids.get(i), ++seq); // one key: one queue, in this order
    }
    failOnce.add(ids.get(5));
    Map<Connection, Integer> perTransaction = new IdentityHashMap<>();
    DedupHandler<MessageExt> handler = handler();
    DedupHandler<MessageExt> tracked =
        (c, m) -> {
          synchronized (perTransaction) {
            perTransaction.merge(c, 1, Integer::sum);
          }
          handler.handle(c, m);
        };

    start(group, RocketMqDedup.orderly(dedup(group, true), tracked), 16);

    await().atMost(TIMEOUT).until(() -> distinctEffects() == 40);
    assertThat(effects()).isEqualTo(40);
    assertThat(failures).hasValue(1);
    assertThat(stale).hasValue(0);
    // the batch 0..15 failed at 5: 0..4 committed, then came back with the batch as duplicates
    assertThat(duplicates.get()).isGreaterThanOrEqualTo(5);
    synchronized (perTransaction) {
      assertThat(perTransaction.values().stream().mapToInt(Integer::intValue).max().orElse(0))
          .as("messages in the largest transaction")
          .isGreaterThan(1);
    }
    assertThat(ids).allMatch(id -> store.isProcessed(group, id));
  }

  /** 20 messages over four keys, the first failing once, and four sent twice. */
  private List<String> sendWithDuplicates() throws Exception {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String id = newId();
      ids.add(id);
      send("order-" + (i % 4), id, ++seq);
    }
    failOnce.add(ids.get(0));
    for (int i = 16; i < 20; i++) {
      send("order-" + (i % 4), ids.get(i), i + 1); // raw broker duplicates
    }
    return ids;
  }

  private DedupHandler<MessageExt> handler() {
    return (c, m) -> {
      String id = RocketMqDedup.identity(m).id();
      insertEffect(c, id);
      if (failOnce.remove(id)) {
        failures.incrementAndGet();
        throw new IllegalStateException("first attempt fails");
      }
    };
  }

  private Dedup dedup(String group, boolean highWaterMark) {
    return Dedup.builder()
        .store(store)
        .group(group)
        .highWaterMark(highWaterMark)
        .listener(
            new DedupListener() {
              @Override
              public void onOutcome(String g, MessageIdentity m, Outcome outcome) {
                if (outcome == Outcome.STALE) {
                  stale.incrementAndGet();
                } else if (outcome == Outcome.DUPLICATE) {
                  duplicates.incrementAndGet();
                }
              }
            })
        .build();
  }

  private void start(String group, MessageListener listener) throws Exception {
    start(group, listener, 1);
  }

  private void start(String group, MessageListener listener, int batchSize) throws Exception {
    DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
    consumer.setConsumeMessageBatchMaxSize(batchSize);
    consumer.setNamesrvAddr(ROCKETMQ.server().nameServerAddress());
    consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
    consumer.setConsumeThreadMin(4);
    consumer.setConsumeThreadMax(4);
    consumer.setSuspendCurrentQueueTimeMillis(200);
    consumer.setPollNameServerInterval(1000); // finds the retry topic soon after the first failure
    consumer.subscribe(topic, "*");
    consumer.setMessageListener(listener);
    consumers.add(consumer);
    consumer.start();
  }

  /**
   * As the RocketMQ publisher sends: keys = id, user properties id, aggregateid, seq, seq-order;
   * queue by key.
   */
  private void send(String key, String id, long sequence) throws Exception {
    Message m = new Message(topic, "OrderChanged", id, ("{\"id\":\"" + id + "\"}").getBytes(UTF_8));
    m.putUserProperty("id", id);
    m.putUserProperty("aggregateid", key);
    m.putUserProperty("seq", Long.toString(sequence));
    m.putUserProperty("seq-order", "key"); // as written by a writer with key order on
    producer.send(
        m, (queues, msg, arg) -> queues.get(Math.floorMod(arg.hashCode(), queues.size())), key);
  }
}
