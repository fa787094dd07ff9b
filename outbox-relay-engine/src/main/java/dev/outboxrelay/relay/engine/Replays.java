package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_ID;
import static dev.outboxrelay.core.OutboxColumn.CREATED_AT;
import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.rows.OutboxRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Resets kept rows to pending (a relay publishes them again) and reads kept rows, for {@link
 * OutboxAdmin}. A discarded message is never reset: a discard is a decision.
 */
final class Replays {
  private Replays() {}

  /**
   * Resets one kept row; false if it is gone, discarded, or not published yet (a pending row needs
   * no replay, and a relay about to mark it published would undo the reset).
   */
  static boolean one(Connection c, StateSql sql, UUID messageId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(resetKept(sql, ID, " = ?"))) {
      sql.setId(ps, 1, messageId);
      return ps.executeUpdate() == 1;
    }
  }

  static int key(Connection c, StateSql sql, String aggregateId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(resetKept(sql, AGGREGATE_ID, " = ?"))) {
      ps.setString(1, aggregateId);
      return ps.executeUpdate();
    }
  }

  static int since(Connection c, StateSql sql, Instant since) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(resetKept(sql, CREATED_AT, " >= ?"))) {
      ps.setTimestamp(1, Timestamp.from(since));
      return ps.executeUpdate();
    }
  }

  private static String reset(StateSql sql) {
    return "UPDATE " + sql.outbox() + " SET " + sql.published() + " = NULL WHERE ";
  }

  private static String resetKept(
      StateSql sql, dev.outboxrelay.core.OutboxColumn column, String condition) {
    return reset(sql)
        + sql.col(column)
        + condition
        + " AND "
        + sql.published()
        + " IS NOT NULL"
        + sql.andNotDiscarded();
  }

  /** Streams kept rows created in {@code [from, to)}, in sequence order; returns how many. */
  static long publishedBetween(
      Connection c, StateSql sql, Instant from, Instant to, Consumer<OutboxMessage> sink)
      throws SQLException {
    // PostgreSQL streams with a fetch size only inside a transaction.
    c.setAutoCommit(false);
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + OutboxRows.selectList(sql.table(), sql.dialect())
                + " FROM "
                + sql.outbox()
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
}
