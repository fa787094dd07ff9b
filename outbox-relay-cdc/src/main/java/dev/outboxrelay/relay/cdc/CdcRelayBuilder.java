package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import javax.sql.DataSource;

/** Configures a {@link CdcRelay}; settings are validated as they are given. Not thread-safe. */
public final class CdcRelayBuilder {
  private String name = "outbox-cdc";
  private String jdbcUrl;
  private String user;
  private String password = "";
  private DataSource dataSource;
  private Publisher publisher;
  private OutboxTable table = OutboxTable.defaults();
  private Duration keepPublishedFor;
  private Duration pollInterval = Duration.ofMillis(20);
  private Duration publishTimeout = Duration.ofSeconds(60);
  private Duration backoffInitial = Duration.ofMillis(100);
  private Duration backoffMax = Duration.ofSeconds(30);
  private final Properties debezium = new Properties();
  private RelayListener listener = new RelayListener() {};

  CdcRelayBuilder() {}

  /**
   * Engine name: offsets key, replication slot and publication (PostgreSQL), lock name. Default:
   * {@code outbox-cdc}.
   */
  public CdcRelayBuilder name(String name) {
    if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_-]{0,40}")) {
      throw new OutboxConfigException("name", name, "must match [A-Za-z][A-Za-z0-9_-]{0,40}");
    }
    this.name = name;
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
   * Keep published rows (published_at set) for a replay window. Default: delete right after
   * capture.
   */
  public CdcRelayBuilder keepPublishedFor(Duration window) {
    this.keepPublishedFor = positive("keepPublishedFor", window, Duration.ofMillis(1));
    return this;
  }

  /** Debezium's {@code poll.interval.ms}. Default: 20 ms (Debezium's own is 500 ms). */
  public CdcRelayBuilder pollInterval(Duration pollInterval) {
    this.pollInterval = positive("pollInterval", pollInterval, Duration.ofMillis(1));
    return this;
  }

  /** Longest wait for one batch's acknowledgements. Default: 60 s. */
  public CdcRelayBuilder publishTimeout(Duration publishTimeout) {
    this.publishTimeout = positive("publishTimeout", publishTimeout, Duration.ofMillis(100));
    return this;
  }

  /** Retry delays of a failing key or an outage, doubled with jitter. Default: 100 ms to 30 s. */
  public CdcRelayBuilder backoff(Duration initial, Duration max) {
    this.backoffInitial = positive("backoffInitial", initial, Duration.ofMillis(1));
    this.backoffMax = positive("backoffMax", max, initial);
    return this;
  }

  /** Debezium settings passed through; they override the relay's. */
  public CdcRelayBuilder debeziumProperties(Map<?, ?> settings) {
    settings.forEach((k, v) -> debezium.setProperty(String.valueOf(k), String.valueOf(v)));
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
    return new CdcRelay(
        new CdcRelayConfig(
            name,
            jdbcUrl,
            user,
            password,
            dataSource,
            publisher,
            table,
            keepPublishedFor,
            pollInterval,
            publishTimeout,
            backoffInitial,
            backoffMax,
            debezium,
            listener));
  }

  private static Duration positive(String key, Duration value, Duration min) {
    if (value == null || value.compareTo(min) < 0) {
      throw new OutboxConfigException(key, value, "must be at least " + min);
    }
    return value;
  }
}
