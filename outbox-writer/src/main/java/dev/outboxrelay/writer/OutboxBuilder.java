package dev.outboxrelay.writer;

import dev.outboxrelay.core.MessageLimits;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.time.Duration;
import java.util.Objects;

/** Configures an {@link Outbox}; validates each setting as it is given. Not thread-safe. */
public final class OutboxBuilder {
  /**
   * 1,015,808 bytes: Kafka's default {@code max.request.size} (1 MiB, the smallest of the
   * publishers' defaults) less {@link MessageLimits#ENVELOPE_BYTES} for key, type and headers.
   */
  public static final int DEFAULT_MAX_PAYLOAD_BYTES = MessageLimits.DEFAULT_MAX_PAYLOAD_BYTES;

  OutboxTable table = OutboxTable.defaults();
  SqlDialect dialect;
  int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
  boolean requireTransaction = true;
  boolean keyOrder = true;
  Duration wakeUpInterval = DEFAULT_WAKE_UP_INTERVAL;

  /** The default of {@link #wakeUpInterval(Duration)}: 20 ms. */
  public static final Duration DEFAULT_WAKE_UP_INTERVAL = Duration.ofMillis(20);

  OutboxBuilder() {}

  /** The table contract. Default: {@link OutboxTable#defaults()} (table {@code outbox}). */
  public OutboxBuilder table(OutboxTable table) {
    this.table = Objects.requireNonNull(table, "table");
    return this;
  }

  /** The database. Default: detected from each connection's product name. */
  public OutboxBuilder dialect(SqlDialect dialect) {
    this.dialect = Objects.requireNonNull(dialect, "dialect");
    return this;
  }

  /**
   * Largest payload accepted, in bytes; larger ones are rejected before any SQL with an {@link
   * dev.outboxrelay.core.InvalidMessageException}. The user's headers are limited apart, to {@link
   * MessageLimits#MAX_HEADERS_BYTES}, so that with the default every accepted message fits every
   * publisher's and broker's default limit. To raise it, raise the publisher's request limit (and
   * the broker's) to at least this value plus {@link MessageLimits#ENVELOPE_BYTES} first; otherwise
   * a saved message can park its key for good. Default: {@value #DEFAULT_MAX_PAYLOAD_BYTES}.
   */
  public OutboxBuilder maxPayloadBytes(int maxPayloadBytes) {
    if (maxPayloadBytes < 1) {
      throw new OutboxConfigException("maxPayloadBytes", maxPayloadBytes, "must be at least 1");
    }
    this.maxPayloadBytes = maxPayloadBytes;
    return this;
  }

  /**
   * Whether {@code save} refuses a connection in auto-commit mode, where the message would commit
   * apart from the business data. Default: {@code true}.
   */
  public OutboxBuilder requireTransaction(boolean requireTransaction) {
    this.requireTransaction = requireTransaction;
    return this;
  }

  /**
   * Key order: before inserting, {@code save} takes a lock on the message's aggregateid that is
   * held until the caller's transaction ends, so transactions writing the same key serialize from
   * their {@code save} to their commit. Then a key's {@code seq} increases in commit order for
   * every relay, and the writer stamps each row with the {@code seq-order: key} header ({@link
   * dev.outboxrelay.core.MessageContract#HEADER_SEQUENCE_ORDER}) that lets a consumer's high-water
   * mark skip older messages safely. Cost: same-key writers wait for each other; a transaction that
   * saves several keys in separate calls, in an order another transaction reverses, can deadlock
   * (the database aborts one; save them in one {@code saveAll}, which locks in a fixed order). On
   * MySQL/MariaDB it needs the {@code <table>_key_lock} table ({@link OutboxSchema}). Off: no lock,
   * no header; consumers dedup those messages by id only. Default: {@code true}.
   */
  public OutboxBuilder keyOrder(boolean keyOrder) {
    this.keyOrder = keyOrder;
    return this;
  }

  /**
   * PostgreSQL: how often at most {@code save} wakes idle polling relays ({@code listenNotify})
   * with a {@code pg_notify} on the table's channel in the caller's transaction; the saves in
   * between notify nothing (the woken relay polls every 5 ms for 50 ms and finds their rows). Per
   * {@link Outbox} instance: applications with many writer processes may want a longer interval,
   * since each notifying commit takes a database-wide lock through its WAL flush. {@link
   * Duration#ZERO}: never notify (relays find rows at their poll interval). Ignored on
   * MySQL/MariaDB. Default: 20 ms.
   */
  public OutboxBuilder wakeUpInterval(Duration interval) {
    Objects.requireNonNull(interval, "wakeUpInterval");
    if (interval.isNegative()) {
      throw new OutboxConfigException("wakeUpInterval", interval, "must not be negative");
    }
    this.wakeUpInterval = interval;
    return this;
  }

  public Outbox build() {
    return new JdbcOutbox(this);
  }
}
