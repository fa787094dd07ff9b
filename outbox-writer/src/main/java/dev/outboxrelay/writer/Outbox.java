package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.util.Collection;
import java.util.List;

/**
 * Writes outbox messages into the caller's transaction. The row commits or rolls back with the
 * business data; nothing is sent to a broker from here. Thread-safe; build once and share.
 *
 * <pre>{@code
 * Outbox outbox = Outbox.builder().build();
 * connection.setAutoCommit(false);
 * // ... business writes on the same connection ...
 * outbox.save(connection, OutboxMessage.builder()
 *     .aggregateType("order").aggregateId("42").type("OrderPlaced").payload(json).build());
 * connection.commit();
 * }</pre>
 */
public interface Outbox {

  /** A builder with the defaults documented on each of its methods. */
  static OutboxBuilder builder() {
    return new OutboxBuilder();
  }

  /**
   * Inserts one message on the caller's connection. Never commits, rolls back or closes it.
   *
   * @throws dev.outboxrelay.core.InvalidMessageException before any SQL, if the payload is too
   *     large
   * @throws dev.outboxrelay.core.OutboxException if the connection is in auto-commit mode and
   *     {@link OutboxBuilder#requireTransaction(boolean)} is on
   * @throws dev.outboxrelay.core.OutboxDatabaseException if the insert fails
   */
  default void save(Connection connection, OutboxMessage message) {
    saveAll(connection, List.of(message));
  }

  /**
   * Inserts the messages in one JDBC batch, in iteration order (their sequence follows it). All
   * messages are validated before any SQL runs. Never commits, rolls back or closes the connection.
   * With {@link OutboxBuilder#keyOrder(boolean) key order} (the default) it first locks every key
   * of the batch, in a fixed order, until the caller's transaction ends: another transaction saving
   * one of these keys waits here until then.
   *
   * <p>Trace context: with OpenTelemetry's API on the classpath and a valid span current, a message
   * without a traceparent is saved with the current span's W3C {@code traceparent}, and its {@code
   * tracestate} as a header of that name. A traceparent set on the message always wins.
   */
  void saveAll(Connection connection, Collection<OutboxMessage> messages);

  /**
   * A buffer for the messages of one transaction, written by {@link OutboxBuffer#flush} just before
   * the commit, with the key locks held only from there to the commit (see {@link OutboxBuffer}).
   * Messages are validated when saved into it only by builders' outboxes; other implementations
   * validate at the flush.
   */
  default OutboxBuffer buffer() {
    return new OutboxBuffer(this, m -> {});
  }

  /**
   * {@code message} as {@link #saveAll} would store it with respect to trace context: without a
   * traceparent of its own, stamped with the current span's (see there); otherwise unchanged. For
   * code that also sends the message itself beside saving it (RocketMQ transactional messages), so
   * that the row and the sent message carry the same context.
   */
  static OutboxMessage traced(OutboxMessage message) {
    java.util.Objects.requireNonNull(message, "message");
    return TraceStamp.stamp(List.of(message)).iterator().next();
  }

  /** The table written to. */
  OutboxTable table();

  /** The dialect set on the builder; when absent, it is detected per connection. */
  java.util.Optional<SqlDialect> dialect();
}
