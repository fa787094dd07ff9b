package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.RelaySettings;
import dev.outboxrelay.core.Setting;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The settings both relays' builders take, written once: each is checked as it is given by its
 * {@link Setting} declaration ({@link RelaySettings}, or the relay's own for the name, batch size
 * and poll interval, whose rules and defaults differ per relay), so an invalid value fails at the
 * call with an {@code OutboxConfigException} naming the setting and the value. {@link #core()}
 * checks what only the whole can and hands the values on as one {@link RelayCore}. Not thread-safe.
 *
 * @param <B> the concrete builder, which every setter returns
 */
public abstract class RelayBuilder<B extends RelayBuilder<B>> {
  private final Setting<String> nameSetting;
  private final Setting<Integer> batchSizeSetting;
  private final Setting<Duration> pollIntervalSetting;
  private String name;
  private DataSource dataSource;
  private Publisher publisher;
  private OutboxTable table = OutboxTable.defaults();
  private Retention retention = Retention.deleteImmediately();
  private int batchSize;
  private Duration pollInterval;
  private Duration publishTimeout = RelaySettings.PUBLISH_TIMEOUT.defaultValue();
  private Duration backoffInitial = RelaySettings.BACKOFF_INITIAL.defaultValue();
  private Duration backoffMax = RelaySettings.BACKOFF_MAX.defaultValue();
  private String deadLetterTopic = RelaySettings.DEAD_LETTER_TOPIC.defaultValue();
  private RelayListener listener = new RelayListener() {};
  private Ticker ticker = Ticker.system();

  /** The relay's own declarations of the settings whose rule or default is its own. */
  protected RelayBuilder(
      Setting<String> name, Setting<Integer> batchSize, Setting<Duration> pollInterval) {
    this.nameSetting = name;
    this.batchSizeSetting = batchSize;
    this.pollIntervalSetting = pollInterval;
    this.name = name.defaultValue();
    this.batchSize = batchSize.defaultValue();
    this.pollInterval = pollInterval.defaultValue();
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /**
   * The relay's name, in log lines and thread names (CDC: also its slot, publication, offsets key
   * and lock). Default and rule: the relay's {@code NAME} ({@code outbox-relay}, 1 to 80
   * characters; CDC {@code outbox-cdc}, {@code [A-Za-z][A-Za-z0-9_-]{0,40}}).
   */
  public B name(String name) {
    this.name = nameSetting.check(name);
    return self();
  }

  /** The pool the relay runs its own statements on. Required. */
  public B dataSource(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    return self();
  }

  /** Where messages go. Required; the relay does not close it. */
  public B publisher(Publisher publisher) {
    this.publisher = Objects.requireNonNull(publisher, "publisher");
    return self();
  }

  /** The table contract. Default: {@link OutboxTable#defaults()}. */
  public B table(OutboxTable table) {
    this.table = Objects.requireNonNull(table, "table");
    return self();
  }

  /**
   * What happens to a published row: deleted, or kept for a replay window ({@link
   * Retention#keepFor}, {@code published_at} set) and then purged. Default: {@link
   * Retention#deleteImmediately()}.
   */
  public B retention(Retention retention) {
    this.retention = Objects.requireNonNull(retention, "retention");
    return self();
  }

  /**
   * Most rows published at once (a claim; CDC: a Debezium batch); it bounds the duplicates per
   * crash. 1 to 10000; default: the relay's {@code BATCH_SIZE} (polling 500, CDC 2048).
   */
  public B batchSize(int batchSize) {
    this.batchSize = batchSizeSetting.check(batchSize);
    return self();
  }

  /**
   * The longest idle wait between reads (polling: between claims, with NOTIFY only the backstop;
   * CDC: Debezium's {@code poll.interval.ms}). At least 1 ms; default: the relay's {@code
   * POLL_INTERVAL} (polling 250 ms, CDC 20 ms).
   */
  public B pollInterval(Duration pollInterval) {
    this.pollInterval = pollIntervalSetting.check(pollInterval);
    return self();
  }

  /**
   * Longest wait for the publisher's acknowledgements of one batch. At least 100 ms; default: 60 s.
   */
  public B publishTimeout(Duration publishTimeout) {
    this.publishTimeout = RelaySettings.PUBLISH_TIMEOUT.check(publishTimeout);
    return self();
  }

  /** First retry delay of a failing key or an outage; doubles with jitter. Default: 100 ms. */
  public B backoffInitial(Duration backoffInitial) {
    this.backoffInitial = RelaySettings.BACKOFF_INITIAL.check(backoffInitial);
    return self();
  }

  /** Upper bound of the retry delay, at least {@link #backoffInitial}. Default: 30 s. */
  public B backoffMax(Duration backoffMax) {
    this.backoffMax = RelaySettings.BACKOFF_MAX.check(backoffMax);
    return self();
  }

  /** {@link #backoffInitial} and {@link #backoffMax} at once. Default: 100 ms to 30 s. */
  public B backoff(Duration initial, Duration max) {
    return backoffInitial(initial).backoffMax(max);
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
  public B deadLetterTopic(String deadLetterTopic) {
    this.deadLetterTopic =
        deadLetterTopic == null ? null : RelaySettings.DEAD_LETTER_TOPIC.check(deadLetterTopic);
    return self();
  }

  /** Metrics and test callbacks. Default: none. */
  public B listener(RelayListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return self();
  }

  /**
   * The clock the relay measures its time windows with (key backoffs, purge intervals; CDC: the
   * marks' yield to a busy stream); tests drive their own. Default: {@link Ticker#system()}.
   */
  public B ticker(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return self();
  }

  /** The batch size given so far (or the default), for a relay's own checks at build. */
  protected final int batchSize() {
    return batchSize;
  }

  /**
   * The shared settings, once the whole is valid.
   *
   * @throws OutboxConfigException if the data source or publisher is missing, {@code backoffMax} is
   *     below {@code backoffInitial}, or the publisher says it cannot send to the dead-letter topic
   */
  protected final RelayCore core() {
    if (dataSource == null || publisher == null) {
      throw new OutboxConfigException(
          dataSource == null ? "dataSource" : "publisher", null, "is required");
    }
    if (backoffMax.compareTo(backoffInitial) < 0) {
      throw new OutboxConfigException(
          "backoffMax", backoffMax, "must be at least backoffInitial " + backoffInitial);
    }
    RelaySettings.requireSendable(publisher, deadLetterTopic);
    return new RelayCore(
        name,
        dataSource,
        publisher,
        table,
        retention,
        batchSize,
        pollInterval,
        publishTimeout,
        backoffInitial,
        backoffMax,
        Optional.ofNullable(deadLetterTopic),
        listener,
        ticker);
  }
}
