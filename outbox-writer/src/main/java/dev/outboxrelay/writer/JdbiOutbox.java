package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxMessage;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;

/**
 * Saves through a Jdbi {@link Handle}, joining the handle's open transaction (for example inside
 * {@code jdbi.useTransaction(...)}). Needs {@code org.jdbi:jdbi3-core} on the classpath.
 * Thread-safe.
 */
public final class JdbiOutbox {
  private final Outbox outbox;

  private JdbiOutbox(Outbox outbox) {
    this.outbox = outbox;
  }

  /** Wraps an {@link Outbox}. */
  public static JdbiOutbox of(Outbox outbox) {
    return new JdbiOutbox(Objects.requireNonNull(outbox, "outbox"));
  }

  /** As {@link Outbox#save}, on the handle's connection; never commits or closes the handle. */
  public void save(Handle handle, OutboxMessage message) {
    saveAll(handle, List.of(message));
  }

  /**
   * Writes what the buffer kept ({@link OutboxBuffer#flush}) on the handle's connection; call it
   * last in the transaction's callback, right before Jdbi commits.
   */
  public void flush(Handle handle, OutboxBuffer buffer) {
    buffer.flush(handle.getConnection());
  }

  /** As {@link Outbox#saveAll}, on the handle's connection. */
  public void saveAll(Handle handle, Collection<OutboxMessage> messages) {
    outbox.saveAll(handle.getConnection(), messages);
  }
}
