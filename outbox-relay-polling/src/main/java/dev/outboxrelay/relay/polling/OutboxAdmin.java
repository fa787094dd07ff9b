package dev.outboxrelay.relay.polling;

import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_ID;
import static dev.outboxrelay.core.OutboxColumn.CREATED_AT;
import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlFunction;
import dev.outboxrelay.core.rows.OutboxRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operator actions on a polling-relay table: inspect, unpark, discard and replay. Safe while relays
 * run: a relay picks an unparked key up at its next claim, in order. Thread-safe.
 */
public final class OutboxAdmin {
  private static final Logger log = LoggerFactory.getLogger(OutboxAdmin.class);

  private final DataSource dataSource;
  private final OutboxTable table;
  private volatile RelaySql sql;

  private OutboxAdmin(DataSource dataSource, OutboxTable table) {
    this.dataSource = dataSource;
    this.table = table;
  }

  public static OutboxAdmin of(DataSource dataSource, OutboxTable table) {
    return new OutboxAdmin(dataSource, table);
  }

  /** The parked keys, oldest first. */
  public List<ParkedKey> parked() {
    return run(
        sql -> {
          List<ParkedKey> keys = new ArrayList<>();
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT aggregateid, message_id, bucket, reason,"
                          + " parked_at FROM "
                          + sql.parked
                          + " ORDER BY parked_at, aggregateid");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              keys.add(
                  new ParkedKey(
                      rs.getString(1),
                      UUID.fromString(rs.getString(2)),
                      rs.getInt(3),
                      rs.getString(4),
                      rs.getTimestamp(5).toInstant()));
            }
          }
          return keys;
        });
  }

  /** Lets a parked key flow again from the message it stopped at (e.g. after raising a limit). */
  public boolean unpark(String aggregateId) {
    boolean done =
        run(
                sql -> {
                  try (Connection c = dataSource.getConnection()) {
                    return exec(
                        c, "DELETE FROM " + sql.parked + " WHERE aggregateid = ?", aggregateId);
                  }
                })
            == 1;
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
   */
  public boolean discardParked(String aggregateId, Retention retention, String discardedBy) {
    if (discardedBy == null || discardedBy.isBlank()) {
      throw new IllegalArgumentException(
          "discardedBy must name who decides, but was " + discardedBy);
    }
    String by = discardedBy.length() > 255 ? discardedBy.substring(0, 255) : discardedBy;
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
              boolean done = discard(c, sql, aggregateId, retention, by);
              c.commit();
              return done;
            } catch (SQLException | RuntimeException e) {
              c.rollback();
              throw e;
            }
          }
        });
  }

  private boolean discard(
      Connection c, RelaySql sql, String aggregateId, Retention retention, String by)
      throws SQLException {
    String messageId;
    String reason;
    // Locks the parked row: a concurrent unpark or discard of the key waits, then finds nothing.
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT message_id, reason FROM " + sql.parked + " WHERE aggregateid = ? FOR UPDATE")) {
      ps.setString(1, aggregateId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return false;
        }
        messageId = rs.getString(1);
        reason = rs.getString(2);
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + discardedTable(sql)
                + " (message_id, aggregateid, reason, discarded_by) VALUES (?, ?, ?, ?)")) {
      sql.setId(ps, 1, UUID.fromString(messageId));
      ps.setString(2, aggregateId);
      ps.setString(3, reason);
      ps.setString(4, by);
      ps.executeUpdate();
    }
    String drop =
        retention.keepsRows()
            ? "UPDATE "
                + sql.outbox
                + " SET "
                + sql.published()
                + " = "
                + sql.dialect.now()
                + " WHERE "
            : "DELETE FROM " + sql.outbox + " WHERE ";
    int dropped;
    try (PreparedStatement ps = c.prepareStatement(drop + sql.col(ID) + " = ?")) {
      sql.setId(ps, 1, UUID.fromString(messageId));
      dropped = ps.executeUpdate();
    }
    exec(c, "DELETE FROM " + sql.parked + " WHERE aggregateid = ?", aggregateId);
    log.warn(
        "Discarded message {} of key {} ({} row) by {}, recorded, and unparked the key",
        messageId,
        aggregateId,
        dropped,
        by);
    return true;
  }

  /** Every discarded message, oldest decision first. */
  public List<DiscardedMessage> discarded() {
    return run(
        sql -> {
          List<DiscardedMessage> out = new ArrayList<>();
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT message_id, aggregateid, reason, discarded_by, discarded_at FROM "
                          + discardedTable(sql)
                          + " ORDER BY discarded_at, message_id");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              out.add(
                  new DiscardedMessage(
                      UUID.fromString(rs.getString(1)),
                      rs.getString(2),
                      rs.getString(3),
                      rs.getString(4),
                      rs.getTimestamp(5).toInstant()));
            }
          }
          return out;
        });
  }

  /**
   * Publishes a kept message again (retention {@code keepFor}); it goes out before the key's
   * pending messages, so per-key order of first deliveries is kept. Returns false if the row is
   * gone or the message was discarded (a discard is a decision, never undone by a replay).
   */
  public boolean replay(UUID messageId) {
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "UPDATE "
                          + sql.outbox
                          + " SET "
                          + sql.published()
                          + " = NULL WHERE "
                          + sql.col(ID)
                          + " = ?"
                          + notDiscarded(sql))) {
            sql.setId(ps, 1, messageId);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /**
   * Publishes every kept message of one key again, in order (retention {@code keepFor}), except
   * discarded ones. Returns how many rows were reset to pending.
   */
  public int replayKey(String aggregateId) {
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection()) {
            return exec(
                c,
                "UPDATE "
                    + sql.outbox
                    + " SET "
                    + sql.published()
                    + " = NULL WHERE "
                    + sql.col(AGGREGATE_ID)
                    + " = ? AND "
                    + sql.published()
                    + " IS NOT NULL"
                    + notDiscarded(sql),
                aggregateId);
          }
        });
  }

  /**
   * Publishes every kept message created at or after {@code since} again, per key in order
   * (retention {@code keepFor}), except discarded ones. Returns how many rows were reset to
   * pending.
   */
  public int replaySince(Instant since) {
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "UPDATE "
                          + sql.outbox
                          + " SET "
                          + sql.published()
                          + " = NULL WHERE "
                          + sql.col(CREATED_AT)
                          + " >= ? AND "
                          + sql.published()
                          + " IS NOT NULL"
                          + notDiscarded(sql))) {
            ps.setTimestamp(1, Timestamp.from(since));
            return ps.executeUpdate();
          }
        });
  }

  /**
   * Every kept row marked published (retention {@code keepFor}) that was created in {@code [from,
   * to)}, in sequence order, streamed to {@code sink} so that a large window does not sit in
   * memory: what the broker should hold. Returns how many rows were read.
   */
  public long publishedBetween(Instant from, Instant to, Consumer<OutboxMessage> sink) {
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection()) {
            // PostgreSQL streams with a fetch size only inside a transaction.
            c.setAutoCommit(false);
            try (PreparedStatement ps =
                c.prepareStatement(
                    "SELECT "
                        + OutboxRows.selectList(table, sql.dialect)
                        + " FROM "
                        + sql.outbox
                        + " WHERE "
                        + sql.col(CREATED_AT)
                        + " >= ? AND "
                        + sql.col(CREATED_AT)
                        + " < ? AND "
                        + sql.published()
                        + " IS NOT NULL ORDER BY "
                        + sql.col(SEQUENCE))) {
              ps.setFetchSize(1000);
              ps.setTimestamp(1, Timestamp.from(from));
              ps.setTimestamp(2, Timestamp.from(to));
              long n = 0;
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  sink.accept(OutboxRows.read(rs));
                  n++;
                }
              }
              c.commit();
              return n;
            }
          }
        });
  }

  /** The age of the oldest pending row on the database clock, empty when nothing is pending. */
  public Optional<Duration> oldestPendingAge() {
    return run(
        sql -> {
          String age = sql.dialect.millisSince("MIN(" + sql.col(CREATED_AT) + ")");
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT "
                          + age
                          + " FROM "
                          + sql.outbox
                          + " WHERE "
                          + sql.published()
                          + " IS NULL");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            double millis = rs.getDouble(1);
            return rs.wasNull()
                ? Optional.<Duration>empty()
                : Optional.of(Duration.ofMillis(Math.max(0, Math.round(millis))));
          }
        });
  }

  /** Live polling relays and how many key buckets each holds an unexpired lease on. */
  public Map<String, Integer> leaseOwners() {
    return run(
        sql -> {
          Map<String, Integer> owners = new TreeMap<>();
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT owner, COUNT(*) FROM "
                          + sql.lease
                          + " WHERE owner IS NOT NULL AND expires_at > "
                          + sql.dialect.now()
                          + " GROUP BY owner");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              owners.put(rs.getString(1), rs.getInt(2));
            }
          }
          return owners;
        });
  }

  /** Rows not yet published. */
  public long pendingCount() {
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT COUNT(*) FROM "
                          + sql.outbox
                          + " WHERE "
                          + sql.published()
                          + " IS NULL");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  private String discardedTable(RelaySql sql) {
    return table.qualifiedCompanion(sql.dialect, "discarded");
  }

  private String notDiscarded(RelaySql sql) {
    return " AND " + sql.col(ID) + " NOT IN (SELECT message_id FROM " + discardedTable(sql) + ")";
  }

  private static int exec(Connection c, String statement, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(statement)) {
      ps.setString(1, key);
      return ps.executeUpdate();
    }
  }

  private <T> T run(SqlFunction<RelaySql, T> work) {
    try {
      RelaySql sql = this.sql;
      if (sql == null) {
        // The dialect is read once: the daemon samples the table every 2 s through this class.
        try (Connection c = dataSource.getConnection()) {
          sql = new RelaySql(table, SqlDialect.of(c));
        }
        this.sql = sql;
      }
      return work.apply(sql);
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Outbox admin action on " + table + " failed", e);
    }
  }
}
