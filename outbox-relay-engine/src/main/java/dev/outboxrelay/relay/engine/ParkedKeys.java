package dev.outboxrelay.relay.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reads and removes rows of {@code <table>_parked}, for {@link OutboxAdmin}. */
final class ParkedKeys {
  private ParkedKeys() {}

  static List<ParkedKey> list(Connection c, StateSql sql) throws SQLException {
    List<ParkedKey> keys = new ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT p.aggregateid, p.message_id, p.bucket, p.reason, p.parked_at, d.sent_at"
                    + " FROM "
                    + sql.parked()
                    + " p LEFT JOIN "
                    + sql.deadLetter()
                    + " d ON d.aggregateid = p.aggregateid AND d.message_id = p.message_id"
                    + " AND d.parked_at = p.parked_at ORDER BY p.parked_at, p.aggregateid");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        keys.add(
            new ParkedKey(
                rs.getString(1),
                UUID.fromString(rs.getString(2)),
                rs.getInt(3),
                rs.getString(4),
                rs.getTimestamp(5).toInstant(),
                rs.getTimestamp(6) == null ? null : rs.getTimestamp(6).toInstant()));
      }
    }
    return keys;
  }

  /** Deletes the key's parked row; returns how many rows went (0 or 1). */
  static int unpark(Connection c, StateSql sql, String aggregateId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM " + sql.parked() + " WHERE aggregateid = ?")) {
      ps.setString(1, aggregateId);
      return ps.executeUpdate();
    }
  }
}
