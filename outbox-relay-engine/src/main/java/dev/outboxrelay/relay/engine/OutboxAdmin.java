package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.Jdbc;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operator actions on an outbox table's relay state, for either relay (polling or CDC): inspect,
 * unpark, discard and replay, and the backlog. Safe while relays run: a relay picks an unparked key
 * up at its next claim (polling) or its next read of the parked keys (CDC), in order. Every failure
 * is an {@link OutboxDatabaseException} naming the table. Thread-safe.
 */
public final class OutboxAdmin {
  private static final Logger log = LoggerFactory.getLogger(OutboxAdmin.class);

  private final DataSource dataSource;
  private final OutboxTable table;
  private volatile StateSql sql;

  private OutboxAdmin(DataSource dataSource, OutboxTable table) {
    this.dataSource = dataSource;
    this.table = table;
  }

  /** Actions on {@code table}'s state; the dialect is read from the first connection. */
  public static OutboxAdmin of(DataSource dataSource, OutboxTable table) {
    return new OutboxAdmin(dataSource, table);
  }

  /** The parked keys, oldest first. */
  public List<ParkedKey> parked() {
    return run(ParkedKeys::list);
  }

  /** Lets a parked key flow again from the message it stopped at (e.g. after raising a limit). */
  public boolean unpark(String aggregateId) {
    boolean done = run((c, sql) -> ParkedKeys.unpark(c, sql, aggregateId)) == 1;
    log.info(
        "Unparked key {}: {}",
        aggregateId,
        done ? "resumes at its parked message" : "was not parked");
    return done;
  }

  /**
   * Drops the message a key is parked at without sending it (it is deleted from the outbox, or
   * marked published when rows are kept), records the decision in {@code <table>_discarded} and
   * unparks the key, in one transaction. Recorded as discarded by the JVM's {@code user.name}.
   */
  public boolean discardParked(String aggregateId, Retention retention) {
    return discardParked(aggregateId, retention, System.getProperty("user.name", "unknown"));
  }

  /**
   * As {@link #discardParked(String, Retention)}, naming who decided (at most 255 characters).
   * Returns false, changing nothing, if the key is not parked.
   *
   * @throws IllegalArgumentException if {@code discardedBy} is blank
   */
  public boolean discardParked(String aggregateId, Retention retention, String discardedBy) {
    if (discardedBy == null || discardedBy.isBlank()) {
      throw new IllegalArgumentException(
          "discardedBy must name who decides, but was " + discardedBy);
    }
    String by = discardedBy.length() > 255 ? discardedBy.substring(0, 255) : discardedBy;
    return run(
        (c, sql) ->
            Jdbc.inTransaction(c, tx -> Discards.discard(tx, sql, aggregateId, retention, by)));
  }

  /** Every discarded message, oldest decision first. */
  public List<DiscardedMessage> discarded() {
    return run(Discards::list);
  }

  /**
   * Publishes a kept message again (retention {@code keepFor}); it goes out before the key's
   * pending messages, so per-key order of first deliveries is kept. Returns false if the row is
   * gone, not published yet (still pending: nothing to replay), or the message was discarded (a
   * discard is a decision, never undone by a replay).
   */
  public boolean replay(UUID messageId) {
    return run((c, sql) -> Replays.one(c, sql, messageId));
  }

  /**
   * Publishes every kept message of one key again, in order (retention {@code keepFor}), except
   * discarded ones. Returns how many rows were reset to pending.
   */
  public int replayKey(String aggregateId) {
    return run((c, sql) -> Replays.key(c, sql, aggregateId));
  }

  /**
   * Publishes every kept message created at or after {@code since} again, per key in order
   * (retention {@code keepFor}), except discarded ones. Returns how many rows were reset to
   * pending.
   */
  public int replaySince(Instant since) {
    return run((c, sql) -> Replays.since(c, sql, since));
  }

  /**
   * Every kept row marked published (retention {@code keepFor}) that was created in {@code [from,
   * to)}, in sequence order, streamed to {@code sink} so that a large window does not sit in
   * memory: what the broker should hold. Returns how many rows were read.
   */
  public long publishedBetween(Instant from, Instant to, Consumer<OutboxMessage> sink) {
    return run((c, sql) -> Replays.publishedBetween(c, sql, from, to, sink));
  }

  /** The age of the oldest pending row on the database clock, empty when nothing is pending. */
  public Optional<Duration> oldestPendingAge() {
    return run(Backlog::oldestPendingAge);
  }

  /** Live polling relays and how many key buckets each holds an unexpired lease on. */
  public Map<String, Integer> leaseOwners() {
    return run(Backlog::leaseOwners);
  }

  /** Rows not yet published. */
  public long pendingCount() {
    return run(Backlog::pendingCount);
  }

  /** Work on one connection with the table's statements. */
  private interface Action<T> {
    T apply(Connection c, StateSql sql) throws SQLException;
  }

  private <T> T run(Action<T> action) {
    try (Connection c = dataSource.getConnection()) {
      return action.apply(c, sql(c));
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Outbox admin action on " + table + " failed", e);
    }
  }

  /** The dialect is read once: the daemon samples the table every 2 s through this class. */
  private StateSql sql(Connection c) throws SQLException {
    StateSql s = sql;
    if (s == null) {
      s = StateSql.of(table, SqlDialect.of(c));
      sql = s;
    }
    return s;
  }
}
