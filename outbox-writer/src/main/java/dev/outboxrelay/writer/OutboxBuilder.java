package dev.outboxrelay.writer;

import dev.outboxrelay.core.MessageLimits;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
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

  public Outbox build() {
    return new JdbcOutbox(this);
  }
}
