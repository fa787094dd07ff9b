package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL's wake-up for idle polling relays: a {@code save} sends {@code pg_notify} on the
 * table's channel in the caller's transaction (delivered at its commit, dropped with a rollback),
 * at most once per interval for one {@link Outbox}; the saves in between send nothing and cost
 * nothing. A committing transaction that notified takes a database-wide lock through its WAL flush,
 * so notifying in every transaction (V2's trigger) serialized durable commits; deciding here
 * instead of in a trigger (V6's, dropped by V8) also spares every other transaction the trigger's
 * work. A relay woken by one notification polls every 5 ms for 50 ms after it, which finds the rows
 * of the commits that did not notify.
 */
final class WakeUp {
  private static final String SQL = "SELECT pg_notify(?, '')";
  private static final Logger log = LoggerFactory.getLogger(WakeUp.class);

  private final OutboxTable table;
  private final String channel;
  private final long intervalNanos;
  private final AtomicLong last;

  WakeUp(OutboxTable table, Duration interval) {
    this.table = table;
    this.channel = table.notifyChannel();
    this.intervalNanos = interval.toNanos();
    this.last = new AtomicLong(System.nanoTime() - intervalNanos);
  }

  /**
   * Notifies if the interval has passed since this writer last did; one caller wins a race. In
   * auto-commit mode the row has committed already: a failed notification only leaves it to the
   * relay's poll interval, so it is logged, not thrown; in a transaction it fails the transaction
   * with the row, as a failed insert would.
   */
  void maybeNotify(Connection c) throws SQLException {
    long now = System.nanoTime();
    long previous = last.get();
    if (now - previous < intervalNanos || !last.compareAndSet(previous, now)) {
      return;
    }
    if (!c.getAutoCommit()) {
      send(c);
      return;
    }
    try {
      send(c);
    } catch (SQLException e) {
      log.warn("Saved into {}, but could not wake the relays: {}", table, e.getMessage());
    }
  }

  private void send(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(SQL)) {
      ps.setString(1, channel);
      ps.executeQuery().close();
    }
  }
}
