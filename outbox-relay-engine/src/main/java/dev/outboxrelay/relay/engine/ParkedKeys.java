package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.Jdbc.params;

import dev.outboxrelay.core.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.UUID;

/** Reads and removes rows of {@code <table>_parked}, for {@link OutboxAdmin}. */
final class ParkedKeys {
  private ParkedKeys() {}

  static List<ParkedKey> list(Connection c, StateSql sql) throws SQLException {
    String list =
        sql.sql(
            "SELECT p.aggregateid, p.message_id, p.bucket, p.reason, p.parked_at, d.sent_at"
                + " FROM {parked} p LEFT JOIN {dead_letter} d ON d.aggregateid = p.aggregateid"
                + " AND d.message_id = p.message_id AND d.parked_at = p.parked_at"
                + " ORDER BY p.parked_at, p.aggregateid");
    return Jdbc.query(
        c,
        list,
        params(),
        rs -> {
          Timestamp sent = rs.getTimestamp(6);
          return new ParkedKey(
              rs.getString(1),
              UUID.fromString(rs.getString(2)),
              rs.getInt(3),
              rs.getString(4),
              rs.getTimestamp(5).toInstant(),
              sent == null ? null : sent.toInstant());
        });
  }

  /** Deletes the key's parked row; returns how many rows went (0 or 1). */
  static int unpark(Connection c, StateSql sql, String aggregateId) throws SQLException {
    return Jdbc.update(
        c, sql.sql("DELETE FROM {parked} WHERE aggregateid = ?"), params(aggregateId));
  }
}
