package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.RelaySettings;
import dev.outboxrelay.relay.cdc.internal.debezium.SourceDatabase;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.engine.Ticker;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Configures a {@link CdcRelay}; settings are validated as they are given, by their declarations in
 * {@link CdcSettings} (which also hold the defaults stated below). Not thread-safe.
 */
public final class CdcRelayBuilder {
  private String name = CdcSettings.NAME.defaultValue();
  private String jdbcUrl;
  private String user;
  private String password = "";
  private DataSource dataSource;
  private Publisher publisher;
  private OutboxTable table = OutboxTable.defaults();
  private Retention retention = Retention.deleteImmediately();
  private int batchSize = CdcSettings.BATCH_SIZE.defaultValue();
  private Duration pollInterval = CdcSettings.POLL_INTERVAL.defaultValue();
  private Duration publishTimeout = CdcSettings.PUBLISH_TIMEOUT.defaultValue();
  private Duration backoffInitial = CdcSettings.BACKOFF_INITIAL.defaultValue();
  private Duration backoffMax = CdcSettings.BACKOFF_MAX.defaultValue();
  private final Properties debezium = new Properties();
  private String deadLetterTopic = CdcSettings.DEAD_LETTER_TOPIC.defaultValue();
  private RelayListener listener = new RelayListener() {};
  private Ticker ticker = Ticker.system();

  CdcRelayBuilder() {}

  /**
   * Engine name: offsets key, replication slot and publication (PostgreSQL), lock name. Default:
   * {@code outbox-cdc}.
   */
  public CdcRelayBuilder name(String name) {
    this.name = CdcSettings.NAME.check(name);
    return this;
  }

  /**
   * The source database: {@code jdbc:postgresql|mariadb|mysql://host:port/db}, user, password.
   * Required.
   */
  public CdcRelayBuilder source(String jdbcUrl, String user, String password) {
    SourceDatabase.parse(jdbcUrl);
    this.jdbcUrl = jdbcUrl;
    this.user = Objects.requireNonNull(user, "user");
    this.password = password == null ? "" : password;
    return this;
  }

  /** Pool for the relay's own statements (mark, park, catch-up). Required. */
  public CdcRelayBuilder dataSource(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    return this;
  }

  /** Where messages go. Required; not closed by the relay. */
  public CdcRelayBuilder publisher(Publisher publisher) {
    this.publisher = Objects.requireNonNull(publisher, "publisher");
    return this;
  }

  /** The table contract. Default: {@link OutboxTable#defaults()}. */
  public CdcRelayBuilder table(OutboxTable table) {
    this.table = Objects.requireNonNull(table, "table");
    return this;
  }

  /**
   * What happens to a published row: deleted, or kept for a replay window ({@link
   * Retention#keepFor}, {@code published_at} set) and then purged. The same type as the polling
   * relay's. Default: {@link Retention#deleteImmediately()}.
   */
  public CdcRelayBuilder retention(Retention retention) {
    this.retention = Objects.requireNonNull(retention, "retention");
    return this;
  }

  /**
   * Keep published rows for a replay window: {@code retention(Retention.keepFor(window))}.
   *
   * @deprecated use {@link #retention(Retention)}, the polling relay's spelling
   */
  @Deprecated
  public CdcRelayBuilder keepPublishedFor(Duration window) {
    return retention(Retention.keepFor(CdcSettings.KEEP_PUBLISHED_FOR.check(window)));
  }

  /**
   * The clock the relay measures its time windows with (key backoffs, purge intervals, the
   * retention's yield to a busy stream); tests drive their own. Default: {@link Ticker#system()}.
   */
  public CdcRelayBuilder ticker(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return this;
  }

  /**
   * Most rows published at once: Debezium's {@code max.batch.size} (its {@code max.queue.size} is
   * set to {@code max(8192, 4 × batchSize)}) and the chunk of the start-up catch-up and of a
   * drained key. Rows published but not yet written as published when the process dies are
   * published again: a batch's write overlaps the next batch, so {@code 2 × batchSize} is the bound
   * on duplicates per crash. Default: 2048, Debezium's own (why: {@link CdcSettings#BATCH_SIZE}), 1
   * to 10000.
   */
  public CdcRelayBuilder batchSize(int batchSize) {
    this.batchSize = CdcSettings.BATCH_SIZE.check(batchSize);
    return this;
  }

  /** Debezium's {@code poll.interval.ms}. Default: 20 ms (Debezium's own is 500 ms). */
  public CdcRelayBuilder pollInterval(Duration pollInterval) {
    this.pollInterval = CdcSettings.POLL_INTERVAL.check(pollInterval);
    return this;
  }

  /** Longest wait for one batch's acknowledgements. Default: 60 s. */
  public CdcRelayBuilder publishTimeout(Duration publishTimeout) {
    this.publishTimeout = CdcSettings.PUBLISH_TIMEOUT.check(publishTimeout);
    return this;
  }

  /** Retry delays of a failing key or an outage, doubled with jitter. Default: 100 ms to 30 s. */
  public CdcRelayBuilder backoff(Duration initial, Duration max) {
    this.backoffInitial = CdcSettings.BACKOFF_INITIAL.check(initial);
    this.backoffMax = positive("backoffMax", CdcSettings.BACKOFF_MAX.check(max), initial);
    return this;
  }

  /**
   * Debezium settings passed through; they override the relay's, except {@code max.batch.size} (set
   * {@link #batchSize}, which bounds duplicates) and a {@code max.queue.size} not larger than the
   * batch size, both refused at {@link #build()}.
   */
  public CdcRelayBuilder debeziumProperties(Map<?, ?> settings) {
    settings.forEach((k, v) -> debezium.setProperty(String.valueOf(k), String.valueOf(v)));
    return this;
  }

  /**
   * A topic each parked key's message is copied to once, through the relay's publisher, with the
   * reason in the header {@code outbox-parked-reason}; the key stays parked until an operator
   * unparks or discards it. Only the relay that streams (holds the source lock) copies. Null turns
   * it off. Needs {@code <table>_dead_letter} (migration {@code V5__dead_letter.sql}). Default:
   * off.
   *
   * @throws OutboxConfigException if the name is not 1 to 127 characters from {@code
   *     [a-zA-Z0-9._-]}
   */
  public CdcRelayBuilder deadLetterTopic(String deadLetterTopic) {
    this.deadLetterTopic =
        deadLetterTopic == null ? null : CdcSettings.DEAD_LETTER_TOPIC.check(deadLetterTopic);
    return this;
  }

  /** Metrics and test callbacks. Default: none. */
  public CdcRelayBuilder listener(RelayListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  public CdcRelay build() {
    if (jdbcUrl == null) {
      throw new OutboxConfigException("source", null, "is required");
    }
    if (dataSource == null || publisher == null) {
      throw new OutboxConfigException(
          dataSource == null ? "dataSource" : "publisher", null, "is required");
    }
    checkDebeziumBatching();
    RelaySettings.requireSendable(publisher, deadLetterTopic);
    return new CdcRelay(
        new CdcRelayConfig(
            name,
            jdbcUrl,
            user,
            password,
            dataSource,
            publisher,
            table,
            retention,
            batchSize,
            pollInterval,
            publishTimeout,
            backoffInitial,
            backoffMax,
            debezium,
            java.util.Optional.ofNullable(deadLetterTopic),
            listener,
            ticker));
  }

  private void checkDebeziumBatching() {
    if (debezium.containsKey("max.batch.size")) {
      throw new OutboxConfigException(
          "debeziumProperties.max.batch.size",
          debezium.getProperty("max.batch.size"),
          "is set by the relay from batchSize ("
              + batchSize
              + "), which bounds duplicates; set"
              + " batchSize instead");
    }
    String queue = debezium.getProperty("max.queue.size");
    if (queue != null
        && !(queue.trim().matches("\\d{1,9}") && Integer.parseInt(queue.trim()) > batchSize)) {
      throw new OutboxConfigException(
          "debeziumProperties.max.queue.size",
          queue,
          "must be a whole number larger than batchSize (" + batchSize + ")");
    }
  }

  private static Duration positive(String key, Duration value, Duration min) {
    if (value == null || value.compareTo(min) < 0) {
      throw new OutboxConfigException(key, value, "must be at least " + min);
    }
    return value;
  }
}
