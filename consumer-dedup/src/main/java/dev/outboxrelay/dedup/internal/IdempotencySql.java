package dev.outboxrelay.dedup.internal;

import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The idempotency-key statements of one table on one database. Immutable. */
public final class IdempotencySql {
  /** A key's row as read. */
  public record Row(boolean done, String owner, byte[] response, boolean expired) {}

  private final String claim;
  private final String read;
  private final String takeOver;
  private final String lock;
  private final String complete;
  private final String release;
  private final String purgeBatch;

  public IdempotencySql(SqlDialect d, String table) {
    String t = d.quote(table);
    String key = " WHERE idempotency_key = ?";
    this.claim = d.insertIgnore(t, "(idempotency_key, status, owner) VALUES (?, ?, ?)");
    this.read =
        "SELECT status, owner, response, CASE WHEN claimed_at < "
            + d.clockMinusMicros()
            + " THEN 1 ELSE 0 END FROM "
            + t
            + key;
    this.takeOver =
        "UPDATE "
            + t
            + " SET owner = ?, claimed_at = "
            + d.clockTimestamp()
            + ", takeovers = takeovers + 1"
            + key
            + " AND status = 'PROCESSING' AND owner = ? AND claimed_at < "
            + d.clockMinusMicros();
    this.lock = "SELECT owner, status FROM " + t + key + " FOR UPDATE";
    this.complete =
        "UPDATE "
            + t
            + " SET status = 'DONE', response = ?, completed_at = "
            + d.clockTimestamp()
            + key
            + " AND owner = ?";
    this.release = "DELETE FROM " + t + key + " AND owner = ? AND status = 'PROCESSING'";
    this.purgeBatch =
        d.deleteAtMost(
            t, "idempotency_key", "completed_at < " + d.clockMinusMicros(), "completed_at");
  }

  /** Inserts a PROCESSING claim; false if the key exists. */
  public boolean claim(Connection c, String key, String owner) throws SQLException {
    return update(c, claim, key, "PROCESSING", owner) == 1;
  }

  /** The key's row, or null; expired = claimed longer than {@code micros} ago. */
  public Row read(Connection c, String key, long micros) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(read)) {
      ps.setLong(1, micros);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next()
            ? new Row(
                "DONE".equals(rs.getString(1)), rs.getString(2), rs.getBytes(3), rs.getInt(4) == 1)
            : null;
      }
    }
  }

  /** Takes over an expired claim of {@code oldOwner}; true for exactly one caller. */
  public boolean takeOver(Connection c, String key, String oldOwner, String newOwner, long micros)
      throws SQLException {
    return update(c, takeOver, newOwner, key, oldOwner, micros) == 1;
  }

  /** Locks the row until commit; whether {@code owner} still holds the PROCESSING claim. */
  public boolean lockOwned(Connection c, String key, String owner) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(lock)) {
      ps.setString(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && owner.equals(rs.getString(1)) && "PROCESSING".equals(rs.getString(2));
      }
    }
  }

  /** Stores the response and marks the key DONE. */
  public void complete(Connection c, String key, String owner, byte[] response)
      throws SQLException {
    update(c, complete, response, key, owner);
  }

  /** Drops the owner's PROCESSING claim so the request can be retried at once. */
  public void release(Connection c, String key, String owner) throws SQLException {
    update(c, release, key, owner);
  }

  /** Deletes at most {@code limit} DONE keys completed more than {@code micros} ago. */
  public int purgeBatch(Connection c, long micros, int limit) throws SQLException {
    return update(c, purgeBatch, micros, limit);
  }

  private static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      return ps.executeUpdate();
    }
  }
}
