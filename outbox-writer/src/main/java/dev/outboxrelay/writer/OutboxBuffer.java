package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxMessage;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The messages of one transaction, written together by {@link #flush} just before the caller
 * commits (the late write). Each message is validated and takes the current trace context when it
 * is saved; its row, its {@code seq} and its key lock come at {@code flush}: one statement batch
 * that locks every key in a fixed order and inserts the rows in save order. So a key's lock is held
 * only from the flush to the commit, and transactions that save the same keys in different orders
 * cannot deadlock on the outbox. Until the flush no row exists: the transaction cannot read its own
 * messages back. Not thread-safe: one buffer per transaction.
 *
 * <pre>{@code
 * OutboxBuffer buffer = outbox.buffer();
 * connection.setAutoCommit(false);
 * // ... business writes, buffer.save(message) as often as needed ...
 * buffer.flush(connection);
 * connection.commit();
 * }</pre>
 */
public final class OutboxBuffer {
  private final Outbox outbox;
  private final Consumer<OutboxMessage> check;
  private final List<OutboxMessage> pending = new ArrayList<>();

  OutboxBuffer(Outbox outbox, Consumer<OutboxMessage> check) {
    this.outbox = outbox;
    this.check = check;
  }

  /**
   * Keeps a message for the next {@link #flush}.
   *
   * @throws dev.outboxrelay.core.InvalidMessageException now, for a message {@code save} would
   *     refuse
   */
  public void save(OutboxMessage message) {
    saveAll(List.of(message));
  }

  /** Keeps the messages for the next {@link #flush}, in order; one invalid message keeps none. */
  public void saveAll(Collection<OutboxMessage> messages) {
    List<OutboxMessage> stamped = new ArrayList<>(messages.size());
    for (OutboxMessage m : messages) {
      check.accept(m);
      stamped.add(Outbox.traced(m));
    }
    pending.addAll(stamped);
  }

  /**
   * Writes the kept messages on the caller's connection, as {@link Outbox#saveAll} in one call, and
   * empties the buffer. Call it right before {@code commit()}; writes nothing when empty. Never
   * commits, rolls back or closes the connection.
   *
   * @throws dev.outboxrelay.core.OutboxDatabaseException if the write fails; the messages stay
   *     kept, the transaction is the caller's to roll back
   */
  public void flush(Connection connection) {
    Objects.requireNonNull(connection, "connection");
    if (pending.isEmpty()) {
      return;
    }
    outbox.saveAll(connection, List.copyOf(pending));
    pending.clear();
  }

  /** How many messages are kept. */
  public int size() {
    return pending.size();
  }

  /**
   * Forgets the messages kept after the first {@code size} ones, e.g. those saved after a savepoint
   * the caller rolled back to; {@code truncate(0)} forgets all (after a rollback).
   */
  public void truncate(int size) {
    if (size < 0 || size > pending.size()) {
      throw new IllegalArgumentException(
          "size must be between 0 and " + pending.size() + ", but was " + size);
    }
    pending.subList(size, pending.size()).clear();
  }
}
