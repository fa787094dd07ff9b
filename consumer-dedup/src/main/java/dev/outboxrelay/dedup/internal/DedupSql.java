package dev.outboxrelay.dedup.internal;

import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;

/** The dedup and high-water-mark statements of one store on one database. Immutable. */
public final class DedupSql {
  private final SqlDialect dialect;
  private final String insertId;
  private final String selectId;
  private final String selectMark;
  private final String upsertMark;
  private final String insertMark;
  private final String updateMark;
  private final String purgeBatch;

  public DedupSql(SqlDialect dialect, String table, String markTable) {
    String t = dialect.quote(table);
    String m = dialect.quote(markTable);
    this.dialect = dialect;
    this.insertId = dialect.insertIgnore(t, "(consumer_group, message_id) VALUES (?, ?)");
    this.selectId = "SELECT 1 FROM " + t + " WHERE consumer_group = ? AND message_id = ?";
    String where = " WHERE consumer_group = ? AND aggregate_id = ?";
    this.selectMark = "SELECT seq FROM " + m + where;
    String proposed = dialect.upsertProposed("seq");
    // PostgreSQL only (see advance): now(), the transaction's time, as this statement always had.
    this.upsertMark =
        dialect.upsert(
                m,
                "(consumer_group, aggregate_id, seq) VALUES (?, ?, ?)",
                "consumer_group, aggregate_id",
                "seq = " + proposed + ", updated_at = " + dialect.now())
            + " WHERE "
            + dialect.upsertExisting("seq")
            + " < "
            + proposed;
    this.insertMark =
        dialect.insertIgnore(m, "(consumer_group, aggregate_id, seq) VALUES (?, ?, ?)");
    this.updateMark =
        "UPDATE " + m + " SET seq = ?, updated_at = " + dialect.clockTimestamp() + where;
    this.purgeBatch =
        dialect.deleteAtMost(
            t,
            "consumer_group, message_id",
            "processed_at < " + dialect.clockMinusMicros(),
            "processed_at");
  }

  /** Records a message id; false when the group has it already (after a racing insert commits). */
  public boolean insertId(Connection c, String group, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(insertId)) {
      ps.setString(1, group);
      ps.setString(2, id);
      return ps.executeUpdate() == 1;
    }
  }

  /** Whether the group has processed the id (and the row is not purged yet). */
  public boolean exists(Connection c, String group, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(selectId)) {
      ps.setString(1, group);
      ps.setString(2, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /** The key's high-water mark, if any. */
  public OptionalLong mark(Connection c, String group, String key) throws SQLException {
    return readMark(c, selectMark, group, key);
  }

  /**
   * Raises the key's high-water mark to {@code seq} and locks it until commit; false, leaving it
   * unchanged, when the mark is already at or above {@code seq} (a stale or replayed message).
   */
  public boolean advance(Connection c, String group, String key, long seq) throws SQLException {
    if (dialect == SqlDialect.POSTGRESQL) {
      return update(c, upsertMark, group, key, seq) > 0;
    }
    // MySQL: insert first (no gap locks, so first-seen keys do not deadlock), else lock and
    // compare.
    if (update(c, insertMark, group, key, seq) == 1) {
      return true;
    }
    OptionalLong current = readMark(c, selectMark + " FOR UPDATE", group, key);
    if (current.isPresent() && current.getAsLong() >= seq) {
      return false;
    }
    return update(c, updateMark, seq, group, key) > 0;
  }

  /** Deletes at most {@code limit} ids processed more than {@code micros} ago; returns how many. */
  public int purgeBatch(Connection c, long micros, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(purgeBatch)) {
      ps.setLong(1, micros);
      ps.setInt(2, limit);
      return ps.executeUpdate();
    }
  }

  private static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      return ps.executeUpdate();
    }
  }

  private static OptionalLong readMark(Connection c, String sql, String group, String key)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, group);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
      }
    }
  }
}
