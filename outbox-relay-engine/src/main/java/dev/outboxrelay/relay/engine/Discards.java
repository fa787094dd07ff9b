package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.OutboxColumn.ID;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Discards a parked key's message and lists discards, for {@link OutboxAdmin}. */
final class Discards {
  private static final Logger log = LoggerFactory.getLogger(OutboxAdmin.class);

  private Discards() {}

  /**
   * In the caller's transaction: records the parked message as discarded, drops its row (or marks
   * it published when rows are kept) and unparks the key. False, changing nothing, if not parked.
   */
  static boolean discard(
      Connection c, StateSql sql, String aggregateId, Retention retention, String by)
      throws SQLException {
    String messageId;
    String reason;
    // Locks the parked row: a concurrent unpark or discard of the key waits, then finds nothing.
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT message_id, reason FROM "
                + sql.parked()
                + " WHERE aggregateid = ? FOR UPDATE")) {
      ps.setString(1, aggregateId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return false;
        }
        messageId = rs.getString(1);
        reason = rs.getString(2);
      }
    }
    UUID id = UUID.fromString(messageId);
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + sql.discarded()
                + " (message_id, aggregateid, reason, discarded_by) VALUES (?, ?, ?, ?)")) {
      sql.setId(ps, 1, id);
      ps.setString(2, aggregateId);
      ps.setString(3, reason);
      ps.setString(4, by);
      ps.executeUpdate();
    }
    int dropped = drop(c, sql, id, retention);
    ParkedKeys.unpark(c, sql, aggregateId);
    log.warn(
        "Discarded message {} of key {} ({} row) by {}, recorded, and unparked the key",
        messageId,
        aggregateId,
        dropped,
        by);
    return true;
  }

  private static int drop(Connection c, StateSql sql, UUID id, Retention retention)
      throws SQLException {
    String drop =
        retention.keepsRows()
            ? "UPDATE "
                + sql.outbox()
                + " SET "
                + sql.published()
                + " = "
                + sql.dialect().now()
                + " WHERE "
            : "DELETE FROM " + sql.outbox() + " WHERE ";
    try (PreparedStatement ps = c.prepareStatement(drop + sql.col(ID) + " = ?")) {
      sql.setId(ps, 1, id);
      return ps.executeUpdate();
    }
  }

  static List<DiscardedMessage> list(Connection c, StateSql sql) throws SQLException {
    List<DiscardedMessage> out = new ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT message_id, aggregateid, reason, discarded_by, discarded_at FROM "
                    + sql.discarded()
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
  }
}
