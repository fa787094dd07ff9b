package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.Jdbc.params;

import dev.outboxrelay.core.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
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
    // Locks the parked row: a concurrent unpark or discard of the key waits, then finds nothing.
    List<String[]> parked =
        Jdbc.query(
            c,
            sql.sql("SELECT message_id, reason FROM {parked} WHERE aggregateid = ? FOR UPDATE"),
            params(aggregateId),
            rs -> new String[] {rs.getString(1), rs.getString(2)});
    if (parked.isEmpty()) {
      return false;
    }
    String messageId = parked.get(0)[0];
    Object id = sql.idValue(UUID.fromString(messageId));
    Jdbc.update(
        c,
        sql.sql(
            "INSERT INTO {discarded} (message_id, aggregateid, reason, discarded_by)"
                + " VALUES (?, ?, ?, ?)"),
        params(id, aggregateId, parked.get(0)[1], by));
    int dropped =
        Jdbc.update(c, sql.mark(retention.keepsRows(), sql.sql(" WHERE {id} = ?")), params(id));
    ParkedKeys.unpark(c, sql, aggregateId);
    log.warn(
        "Discarded message {} of key {} ({} row) by {}, recorded, and unparked the key",
        messageId,
        aggregateId,
        dropped,
        by);
    return true;
  }

  static List<DiscardedMessage> list(Connection c, StateSql sql) throws SQLException {
    String list =
        sql.sql(
            "SELECT message_id, aggregateid, reason, discarded_by, discarded_at FROM {discarded}"
                + " ORDER BY discarded_at, message_id");
    return Jdbc.query(
        c,
        list,
        params(),
        rs ->
            new DiscardedMessage(
                UUID.fromString(rs.getString(1)),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getTimestamp(5).toInstant()));
  }
}
