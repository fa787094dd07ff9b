package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.RelaySettings;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.engine.Ticker;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Configures a {@link PollingRelay}; each setting is validated as it is given, by its declaration
 * in {@link PollingSettings} (which also holds the defaults stated below). Not thread-safe.
 */
public final class PollingRelayBuilder {
  private String name = PollingSettings.NAME.defaultValue();
  private DataSource dataSource;
  private Publisher publisher;
  private OutboxTable table = OutboxTable.defaults();
  private int batchSize = PollingSettings.BATCH_SIZE.defaultValue();
  private int inFlightBatches = PollingSettings.IN_FLIGHT_BATCHES.defaultValue();
  private Duration pollInterval = PollingSettings.POLL_INTERVAL.defaultValue();
  private Duration leaseDuration = PollingSettings.LEASE_DURATION.defaultValue();
  private Duration publishTimeout = PollingSettings.PUBLISH_TIMEOUT.defaultValue();
  private Duration backoffInitial = PollingSettings.BACKOFF_INITIAL.defaultValue();
  private Duration backoffMax = PollingSettings.BACKOFF_MAX.defaultValue();
  private Retention retention = Retention.deleteImmediately();
  private boolean strictOrder = PollingSettings.STRICT_ORDER.defaultValue();
  private boolean listenNotify = PollingSettings.LISTEN_NOTIFY.defaultValue();
  private String deadLetterTopic = PollingSettings.DEAD_LETTER_TOPIC.defaultValue();
  private RelayListener listener = new RelayListener() {};
  private Ticker ticker = Ticker.system();

  PollingRelayBuilder() {}

  /** Name in log lines and thread names. Default: {@code outbox-relay}. */
  public PollingRelayBuilder name(String name) {
    this.name = PollingSettings.NAME.check(name);
    return this;
  }

  /** Where the outbox table lives; a pool is recommended (3 connections suffice). Required. */
  public PollingRelayBuilder dataSource(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    return this;
  }

  /** Where messages go. Required. The relay does not close it. */
  public PollingRelayBuilder publisher(Publisher publisher) {
    this.publisher = Objects.requireNonNull(publisher, "publisher");
    return this;
  }

  /** The table contract. Default: {@link OutboxTable#defaults()}. */
  public PollingRelayBuilder table(OutboxTable table) {
    this.table = Objects.requireNonNull(table, "table");
    return this;
  }

  /** Rows per claim and publish. Default: 500. */
  public PollingRelayBuilder batchSize(int batchSize) {
    this.batchSize = PollingSettings.BATCH_SIZE.check(batchSize);
    return this;
  }

  /**
   * How many batches may await the broker's acknowledgements at once. The leased buckets are split
   * into this many lanes ({@code bucket % n}); while one lane's batch is acknowledged the next lane
   * is claimed and sent. No key is ever in two batches at once, so per-key order does not depend on
   * it. 1 is the strictly sequential claim, publish, mark loop; {@link #strictOrder} always uses 1.
   * Default: 2 (see the benchmarks README for 1, 2 and 3 measured on PostgreSQL and MariaDB).
   */
  public PollingRelayBuilder inFlightBatches(int inFlightBatches) {
    this.inFlightBatches = PollingSettings.IN_FLIGHT_BATCHES.check(inFlightBatches);
    return this;
  }

  /** Idle wait between claims; with NOTIFY only the backstop. Default: 250 ms. */
  public PollingRelayBuilder pollInterval(Duration pollInterval) {
    this.pollInterval = PollingSettings.POLL_INTERVAL.check(pollInterval);
    return this;
  }

  /** How long a bucket lease lasts without renewal (renewed every third of it). Default: 10 s. */
  public PollingRelayBuilder leaseDuration(Duration leaseDuration) {
    this.leaseDuration = PollingSettings.LEASE_DURATION.check(leaseDuration);
    return this;
  }

  /** Longest wait for the publisher's acknowledgements of one batch. Default: 60 s. */
  public PollingRelayBuilder publishTimeout(Duration publishTimeout) {
    this.publishTimeout = PollingSettings.PUBLISH_TIMEOUT.check(publishTimeout);
    return this;
  }

  /** First retry delay of a failing key or an outage; doubles with jitter. Default: 100 ms. */
  public PollingRelayBuilder backoffInitial(Duration backoffInitial) {
    this.backoffInitial = PollingSettings.BACKOFF_INITIAL.check(backoffInitial);
    return this;
  }

  /** Upper bound of the retry delay. Default: 30 s. */
  public PollingRelayBuilder backoffMax(Duration backoffMax) {
    this.backoffMax = PollingSettings.BACKOFF_MAX.check(backoffMax);
    return this;
  }

  /** What to do with published rows. Default: {@link Retention#deleteImmediately()}. */
  public PollingRelayBuilder retention(Retention retention) {
    this.retention = Objects.requireNonNull(retention, "retention");
    return this;
  }

  /**
   * PostgreSQL only: publish a row only once every transaction that started before it has ended
   * (transaction-id horizon), so rows of one key are published in insertion order even when their
   * transactions commit in the opposite order. Costs latency while long transactions run. Default:
   * off.
   */
  public PollingRelayBuilder strictOrder(boolean strictOrder) {
    this.strictOrder = strictOrder;
    return this;
  }

  /**
   * PostgreSQL: wake on the writer's NOTIFY at commit (OutboxBuilder.wakeUpInterval). Default: on.
   */
  public PollingRelayBuilder listenNotify(boolean listenNotify) {
    this.listenNotify = listenNotify;
    return this;
  }

  /**
   * A topic each parked key's message is copied to once, through the relay's publisher ({@link
   * Publisher#publishTo}), with the reason in the header {@code outbox-parked-reason}; the key
   * stays parked until an operator unparks or discards it. Null turns it off. Needs the table
   * {@code <table>_dead_letter} (migration {@code V5__dead_letter.sql}). Default: off.
   *
   * @throws OutboxConfigException if the name is not 1 to 127 characters from {@code
   *     [a-zA-Z0-9._-]}
   */
  public PollingRelayBuilder deadLetterTopic(String deadLetterTopic) {
    this.deadLetterTopic =
        deadLetterTopic == null ? null : PollingSettings.DEAD_LETTER_TOPIC.check(deadLetterTopic);
    return this;
  }

  /** Metrics and test callbacks. Default: none. */
  public PollingRelayBuilder listener(RelayListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * The clock the relay measures its time windows with (key backoffs, purge intervals); tests drive
   * their own. Default: {@link Ticker#system()}.
   */
  public PollingRelayBuilder ticker(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return this;
  }

  /**
   * Builds the relay (not started).
   *
   * @throws OutboxConfigException if the data source or publisher is missing, or the backoff bounds
   *     are inverted
   */
  public PollingRelay build() {
    if (dataSource == null) {
      throw new OutboxConfigException("dataSource", null, "is required");
    }
    if (publisher == null) {
      throw new OutboxConfigException("publisher", null, "is required");
    }
    if (backoffMax.compareTo(backoffInitial) < 0) {
      throw new OutboxConfigException(
          "backoffMax", backoffMax, "must be at least backoffInitial " + backoffInitial);
    }
    RelaySettings.requireSendable(publisher, deadLetterTopic);
    return new PollingRelay(
        new PollingRelayConfig(
            name,
            dataSource,
            publisher,
            table,
            batchSize,
            inFlightBatches,
            pollInterval,
            leaseDuration,
            publishTimeout,
            backoffInitial,
            backoffMax,
            retention,
            strictOrder,
            listenNotify,
            java.util.Optional.ofNullable(deadLetterTopic),
            listener,
            ticker));
  }
}
