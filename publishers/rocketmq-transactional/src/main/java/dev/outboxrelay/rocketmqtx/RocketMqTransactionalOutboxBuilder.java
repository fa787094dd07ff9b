package dev.outboxrelay.rocketmqtx;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.publisher.rocketmq.RocketMqClientContract;
import dev.outboxrelay.publisher.rocketmq.RocketMqPublisherBuilder;
import dev.outboxrelay.writer.Outbox;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Configures a {@link RocketMqTransactionalOutbox}. Producer settings pass through to {@link
 * TransactionMQProducer} by name, as for {@code RocketMqPublisher}. Validates eagerly, naming the
 * setting and the bad value (secrets masked). Not thread-safe.
 */
public final class RocketMqTransactionalOutboxBuilder {
  private static final Logger LOG = LoggerFactory.getLogger(RocketMqTransactionalOutbox.class);

  /** The default producer group: every instance of a group answers the group's check-backs. */
  public static final String DEFAULT_PRODUCER_GROUP = "outbox-transactional";

  private final Map<String, Object> producer = new LinkedHashMap<>();
  private String namesrvAddr;
  private String group = DEFAULT_PRODUCER_GROUP;
  private String accessKey;
  private String secretKey;
  private DataSource dataSource;
  private Outbox outbox;
  private TopicTemplate topics = TopicTemplate.of(RocketMqPublisherBuilder.DEFAULT_TOPIC_TEMPLATE);
  private TransactionalOutboxListener listener = new TransactionalOutboxListener() {};

  RocketMqTransactionalOutboxBuilder() {}

  /** Name server addresses, {@code host:port;host:port}. Required; no default. */
  public RocketMqTransactionalOutboxBuilder namesrvAddr(String addresses) {
    this.namesrvAddr = text("namesrvAddr", addresses);
    return this;
  }

  /**
   * The producer group. Every producer of the group, on any host, may be asked back about any of
   * the group's messages, and answers from the table. Default: {@value #DEFAULT_PRODUCER_GROUP}.
   */
  public RocketMqTransactionalOutboxBuilder producerGroup(String group) {
    this.group = RocketMqClientContract.requireValidGroup(group);
    return this;
  }

  /**
   * The database of the outbox table and the business data: each send takes a connection for its
   * local transaction, each check-back one for its answer. Required; no default.
   */
  public RocketMqTransactionalOutboxBuilder dataSource(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    return this;
  }

  /** The writer (table, dialect, limits, key order). Default: {@code Outbox.builder().build()}. */
  public RocketMqTransactionalOutboxBuilder outbox(Outbox outbox) {
    this.outbox = Objects.requireNonNull(outbox, "outbox");
    return this;
  }

  /**
   * Topic per message; use the relay publisher's template. Default: {@code
   * outbox-event-${aggregatetype}} (as {@code RocketMqPublisher}).
   */
  public RocketMqTransactionalOutboxBuilder topicTemplate(TopicTemplate topics) {
    this.topics =
        RocketMqClientContract.requireValidTemplate(Objects.requireNonNull(topics, "topics"));
    return this;
  }

  /** ACL credentials, sent through an {@code AclClientRPCHook}. Default: none. */
  public RocketMqTransactionalOutboxBuilder credentials(String accessKey, String secretKey) {
    this.accessKey = text("accessKey", accessKey);
    this.secretKey = text("secretKey", secretKey);
    return this;
  }

  /**
   * One {@code DefaultMQProducer}/{@code ClientConfig} setting by its bean name ({@code
   * sendMsgTimeout}, {@code instanceName}, {@code useTLS}, ...). Checked at {@link #build()}.
   */
  public RocketMqTransactionalOutboxBuilder producerProperty(String key, Object value) {
    producer.put(text("producer setting name", key), value);
    return this;
  }

  /** Events for metrics and logs. Default: none. */
  public RocketMqTransactionalOutboxBuilder listener(TransactionalOutboxListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * Starts the producer; it answers check-backs from then on.
   *
   * @throws OutboxConfigException if {@code namesrvAddr} or {@code dataSource} is missing, a
   *     setting is invalid, or the producer cannot start
   */
  public RocketMqTransactionalOutbox build() {
    if (namesrvAddr == null) {
      throw new OutboxConfigException("namesrvAddr", null, "must be set");
    }
    if (dataSource == null) {
      throw new OutboxConfigException("dataSource", null, "must be set");
    }
    Outbox writer = outbox != null ? outbox : Outbox.builder().build();
    TransactionStatus status = new TransactionStatus(writer.table());
    TransactionMQProducer p =
        accessKey == null
            ? new TransactionMQProducer(group)
            : new TransactionMQProducer(
                group, new AclClientRPCHook(new SessionCredentials(accessKey, secretKey)));
    p.setNamesrvAddr(namesrvAddr);
    RocketMqClientContract.applyProducerSettings(p, producer);
    p.setTransactionListener(new CheckBack(group, dataSource, writer.dialect(), status, listener));
    try {
      p.start();
    } catch (MQClientException e) {
      throw new OutboxConfigException("producerGroup", group, "could not start: " + e.getMessage());
    }
    LOG.info(
        "{} - RocketMQ transactional outbox started (name servers {}, topics {}, table {})",
        group,
        namesrvAddr,
        topics,
        writer.table());
    return new RocketMqTransactionalOutbox(p, dataSource, writer, topics, status, listener);
  }

  private static String text(String key, String value) {
    if (value == null || value.isBlank()) {
      throw new OutboxConfigException(key, value, "must not be blank");
    }
    return value.trim();
  }
}
