package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.Jdbc.params;

import dev.outboxrelay.core.Jdbc;
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
    return Jdbc.update(c, resetKept(sql, "{id} = ?"), params(sql.idValue(messageId))) == 1;
  }

  static int key(Connection c, StateSql sql, String aggregateId) throws SQLException {
    return Jdbc.update(c, resetKept(sql, "{aggregate_id} = ?"), params(aggregateId));
  }

  static int since(Connection c, StateSql sql, Instant since) throws SQLException {
    return Jdbc.update(c, resetKept(sql, "{created_at} >= ?"), params(Timestamp.from(since)));
  }

  private static String resetKept(StateSql sql, String condition) {
    return sql.sql("UPDATE {outbox} SET {published_at} = NULL WHERE " + condition)
        + sql.sql(" AND {published_at} IS NOT NULL")
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
                + sql.sql(
                    " FROM {outbox} WHERE {created_at} >= ? AND {created_at} < ?"
                        + " AND {published_at} IS NOT NULL ORDER BY {sequence}"))) {
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
