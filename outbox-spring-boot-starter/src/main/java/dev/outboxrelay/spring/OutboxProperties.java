package dev.outboxrelay.spring;

import dev.outboxrelay.relay.polling.PollingSettings;
import dev.outboxrelay.writer.OutboxBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The {@code outbox.*} settings. Validated when bound: a bad value fails the application's start
 * with the property's name, its value (masked when the name looks like a secret) and the rule.
 */
@ConfigurationProperties("outbox")
public class OutboxProperties implements Validator {
  /** Whether the starter configures anything at all. */
  private boolean enabled = true;

  private final Table table = new Table();
  private final Schema schema = new Schema();
  private final Writer writer = new Writer();
  private final Relay relay = new Relay();
  private final Publisher publisher = new Publisher();
  private final Dedup dedup = new Dedup();

  @Override
  public boolean supports(Class<?> type) {
    return OutboxProperties.class.isAssignableFrom(type);
  }

  @Override
  public void validate(Object target, Errors errors) {
    PropertiesCheck.validate((OutboxProperties) target, errors);
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Table getTable() {
    return table;
  }

  public Schema getSchema() {
    return schema;
  }

  public Writer getWriter() {
    return writer;
  }

  public Relay getRelay() {
    return relay;
  }

  public Publisher getPublisher() {
    return publisher;
  }

  public Dedup getDedup() {
    return dedup;
  }

  /** The outbox table. */
  public static class Table {
    /** Table name (an identifier; companion tables are named after it). */
    private String name = "outbox";

    /** Schema (catalog on MySQL) of the table; default: the connection's. */
    private String schema;

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public String getSchema() {
      return schema;
    }

    public void setSchema(String schema) {
      this.schema = schema;
    }
  }

  /** Schema initialisation at startup. */
  public static class Schema {
    /** Create the outbox, relay-state and dedup tables when absent (CREATE ... IF NOT EXISTS). */
    private boolean create;

    public boolean isCreate() {
      return create;
    }

    public void setCreate(boolean create) {
      this.create = create;
    }
  }

  /** The Outbox bean. */
  public static class Writer {
    /** Refuse save() outside a Spring-managed transaction. */
    private boolean requireTransaction = true;

    /**
     * Largest payload accepted, in bytes. Default: 1015808, the writer's, which fits every
     * publisher's default; raise the publisher's and broker's limits first (writer README).
     */
    private int maxPayloadBytes = OutboxBuilder.DEFAULT_MAX_PAYLOAD_BYTES;

    /**
     * Serialize same-key writers from save to commit so seq follows commit order per key (the
     * consumer high-water mark relies on it); see Outbox.builder().keyOrder.
     */
    private boolean keyOrder = true;

    /**
     * Write the messages saved in a Spring transaction in one batch when it commits, so key locks
     * are held only through the commit; false: insert each at save (the transaction can then read
     * its own rows).
     */
    private boolean writeAtCommit = true;

    /**
     * PostgreSQL: at most one save per interval sends pg_notify, waking idle polling relays at its
     * commit; 0 never notifies. See Outbox.builder().wakeUpInterval.
     */
    private java.time.Duration wakeUpInterval = OutboxBuilder.DEFAULT_WAKE_UP_INTERVAL;

    public java.time.Duration getWakeUpInterval() {
      return wakeUpInterval;
    }

    public void setWakeUpInterval(java.time.Duration wakeUpInterval) {
      this.wakeUpInterval = wakeUpInterval;
    }

    public boolean isWriteAtCommit() {
      return writeAtCommit;
    }

    public void setWriteAtCommit(boolean writeAtCommit) {
      this.writeAtCommit = writeAtCommit;
    }

    public boolean isKeyOrder() {
      return keyOrder;
    }

    public void setKeyOrder(boolean keyOrder) {
      this.keyOrder = keyOrder;
    }

    public boolean isRequireTransaction() {
      return requireTransaction;
    }

    public void setRequireTransaction(boolean requireTransaction) {
      this.requireTransaction = requireTransaction;
    }

    public int getMaxPayloadBytes() {
      return maxPayloadBytes;
    }

    public void setMaxPayloadBytes(int maxPayloadBytes) {
      this.maxPayloadBytes = maxPayloadBytes;
    }
  }

  /** The publisher the embedded relay sends through. */
  public static class Publisher {
    /** Name of a PublisherFactory found by ServiceLoader: kafka, rocketmq or a third party's. */
    private String type;

    /** Settings passed to the factory (for kafka: producer settings and topic-template). */
    private Map<String, String> settings = new LinkedHashMap<>();

    public String getType() {
      return type;
    }

    public void setType(String type) {
      this.type = type;
    }

    public Map<String, String> getSettings() {
      return settings;
    }

    public void setSettings(Map<String, String> settings) {
      this.settings = settings;
    }
  }

  /** Consumer-side dedup (SpringDedup, @Deduplicated). */
  public static class Dedup {
    /** Default consumer group of dedup records; default: spring.kafka.consumer.group-id. */
    private String group;

    /** Dedup table name. */
    private String tableName = "outbox_dedup";

    /** High-water mark table name. */
    private String highWaterMarkTableName = "outbox_dedup_hwm";

    /** Keep a per-key high-water mark of seq (only where keys are consumed in order). */
    private boolean highWaterMark;

    public String getGroup() {
      return group;
    }

    public void setGroup(String group) {
      this.group = group;
    }

    public String getTableName() {
      return tableName;
    }

    public void setTableName(String tableName) {
      this.tableName = tableName;
    }

    public String getHighWaterMarkTableName() {
      return highWaterMarkTableName;
    }

    public void setHighWaterMarkTableName(String highWaterMarkTableName) {
      this.highWaterMarkTableName = highWaterMarkTableName;
    }

    public boolean isHighWaterMark() {
      return highWaterMark;
    }

    public void setHighWaterMark(boolean highWaterMark) {
      this.highWaterMark = highWaterMark;
    }
  }

  /** Which relay runs embedded in the application. */
  public enum RelayMode {
    /** The SQL claim loop (outbox-relay-polling). */
    POLLING,
    /** Debezium embedded on the WAL / binlog (outbox-relay-cdc on the classpath). */
    CDC
  }

  /** The embedded relay; settings left unset take the relay builder's defaults. */
  public static class Relay extends RelaySettings {
    /** Run a relay inside this application, started and stopped with the context. */
    private boolean enabled;

    /** Start the relay with the application context (false: start the lifecycle bean yourself). */
    private boolean autoStartup = true;

    /** polling or cdc. */
    private RelayMode mode = RelayMode.POLLING;

    /** Relay name (logs, threads; CDC: slot, publication, offsets key); default per mode. */
    private String name;

    private final Cdc cdc = new Cdc();

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public boolean isAutoStartup() {
      return autoStartup;
    }

    public void setAutoStartup(boolean autoStartup) {
      this.autoStartup = autoStartup;
    }

    public RelayMode getMode() {
      return mode;
    }

    public void setMode(RelayMode mode) {
      this.mode = mode;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }

    public Cdc getCdc() {
      return cdc;
    }
  }

  /** CDC source; the URL and credentials default to spring.datasource.*. */
  public static class Cdc {
    /** JDBC URL of the source database (jdbc:postgresql|mariadb|mysql://...). */
    private String url;

    /** A user with replication rights. */
    private String username;

    /** Its password. */
    private String password;

    /** Debezium settings passed through; they override the relay's. */
    private Map<String, String> debezium = new LinkedHashMap<>();

    public String getUrl() {
      return url;
    }

    public void setUrl(String url) {
      this.url = url;
    }

    public String getUsername() {
      return username;
    }

    public void setUsername(String username) {
      this.username = username;
    }

    public String getPassword() {
      return password;
    }

    public void setPassword(String password) {
      this.password = password;
    }

    public Map<String, String> getDebezium() {
      return debezium;
    }

    public void setDebezium(Map<String, String> debezium) {
      this.debezium = debezium;
    }
  }

  /**
   * The relays' settings. Their defaults are the declarations' ({@code PollingSettings}, {@code
   * RelaySettings}), never repeated here; {@code OutboxPropertiesDeclarationsTest} checks that each
   * declared setting is a property with its default, also in the IDE metadata (which takes the
   * defaults from {@code additional-spring-configuration-metadata.json}).
   */
  public static class RelaySettings {
    /**
     * Rows per claim and publish (polling, default 500) or Debezium batch (CDC, 2048), 1 to 10000.
     */
    private Integer batchSize;

    /** Batches awaiting acknowledgements at once (polling), 1 to 8; 1 is sequential. Default: 2. */
    private int inFlightBatches = PollingSettings.IN_FLIGHT_BATCHES.defaultValue();

    /** Idle wait between claims (polling, default 250ms) or Debezium's poll (CDC, 20ms). */
    private Duration pollInterval;

    /** Bucket lease length (polling), renewed every third; at least 1s. */
    private Duration leaseDuration = PollingSettings.LEASE_DURATION.defaultValue();

    /** Longest wait for one batch's broker acknowledgements; at least 100ms. */
    private Duration publishTimeout = PollingSettings.PUBLISH_TIMEOUT.defaultValue();

    /** First retry delay of a failing key or an outage, doubled with jitter. */
    private Duration backoffInitial = PollingSettings.BACKOFF_INITIAL.defaultValue();

    /** Upper bound of the retry delay. */
    private Duration backoffMax = PollingSettings.BACKOFF_MAX.defaultValue();

    /** Keep published rows this long for replay; default: delete at once. */
    private Duration keepFor;

    /** PostgreSQL polling only: publish in insertion order across overlapping transactions. */
    private boolean strictOrder = PollingSettings.STRICT_ORDER.defaultValue();

    /** PostgreSQL polling only: wake at commit through LISTEN/NOTIFY. */
    private boolean listenNotify = PollingSettings.LISTEN_NOTIFY.defaultValue();

    /**
     * Polling only: a topic each parked key's message is copied to once, with its reason in the
     * header outbox-parked-reason; the key stays parked. Default: none (off).
     */
    private String deadLetterTopic = PollingSettings.DEAD_LETTER_TOPIC.defaultValue();

    public Integer getBatchSize() {
      return batchSize;
    }

    public void setBatchSize(Integer batchSize) {
      this.batchSize = batchSize;
    }

    public int getInFlightBatches() {
      return inFlightBatches;
    }

    public void setInFlightBatches(int inFlightBatches) {
      this.inFlightBatches = inFlightBatches;
    }

    public Duration getPollInterval() {
      return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    public Duration getLeaseDuration() {
      return leaseDuration;
    }

    public void setLeaseDuration(Duration leaseDuration) {
      this.leaseDuration = leaseDuration;
    }

    public Duration getPublishTimeout() {
      return publishTimeout;
    }

    public void setPublishTimeout(Duration publishTimeout) {
      this.publishTimeout = publishTimeout;
    }

    public Duration getBackoffInitial() {
      return backoffInitial;
    }

    public void setBackoffInitial(Duration backoffInitial) {
      this.backoffInitial = backoffInitial;
    }

    public Duration getBackoffMax() {
      return backoffMax;
    }

    public void setBackoffMax(Duration backoffMax) {
      this.backoffMax = backoffMax;
    }

    public Duration getKeepFor() {
      return keepFor;
    }

    public void setKeepFor(Duration keepFor) {
      this.keepFor = keepFor;
    }

    public boolean isStrictOrder() {
      return strictOrder;
    }

    public void setStrictOrder(boolean strictOrder) {
      this.strictOrder = strictOrder;
    }

    public boolean isListenNotify() {
      return listenNotify;
    }

    public void setListenNotify(boolean listenNotify) {
      this.listenNotify = listenNotify;
    }

    public String getDeadLetterTopic() {
      return deadLetterTopic;
    }

    public void setDeadLetterTopic(String deadLetterTopic) {
      this.deadLetterTopic = deadLetterTopic;
    }
  }
}
