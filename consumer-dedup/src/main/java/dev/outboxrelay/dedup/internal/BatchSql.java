package dev.outboxrelay.dedup.internal;

import dev.outboxrelay.core.SqlDialect;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The batch statements of one dedup store: a batch's ids in one statement that tells which are new,
 * its keys' high-water marks locked and read in one, advanced in one. Callers pass ids and keys
 * distinct and sorted, so two transactions lock them in the same order. Immutable.
 */
public final class BatchSql {
  /** The mark of a key that had none before this transaction created its row. */
  public static final long NO_MARK = Long.MIN_VALUE;

  private static final String UNIQUE_VIOLATION = "23505";

  private final SqlDialect dialect;
  private final String table;
  private final String marks;
  private final DedupSql single;

  public BatchSql(SqlDialect dialect, String table, String markTable, DedupSql single) {
    this.dialect = dialect;
    this.table = dialect.quote(table);
    this.marks = dialect.quote(markTable);
    this.single = single;
  }

  /** Records the ids; returns those that were new (the others the group has already). */
  public Set<String> insertIds(Connection c, String group, List<String> ids) throws SQLException {
    if (dialect == SqlDialect.POSTGRESQL) {
      return insertIdsPostgres(c, group, ids);
    }
    // MySQL has no RETURNING: one multi-row INSERT IGNORE; only if it skipped a row (a redelivery,
    // rare) roll back to before it and insert one by one to learn which were new.
    Savepoint before = c.setSavepoint();
    String sql =
        dialect.insertIgnore(
            table, "(consumer_group, message_id) VALUES " + rows("(?, ?)", ids.size()));
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int p = 1;
      for (String id : ids) {
        ps.setString(p++, group);
        ps.setString(p++, id);
      }
      if (ps.executeUpdate() == ids.size()) {
        return new HashSet<>(ids);
      }
    }
    c.rollback(before);
    Set<String> fresh = new HashSet<>();
    for (String id : ids) {
      if (single.insertId(c, group, id)) {
        fresh.add(id);
      }
    }
    return fresh;
  }

  /**
   * PostgreSQL: a plain multi-row INSERT under a savepoint, and only if an id exists already (a
   * redelivery, rare) back to the savepoint and {@code ON CONFLICT DO NOTHING RETURNING} to learn
   * which are new. {@code ON CONFLICT} makes every row a speculative insertion (an index probe
   * before the insert, a confirm record after it): for 500 random ids about a third more WAL
   * records and two thirds more buffer accesses than the plain INSERT, and the statement was most
   * of a batch's time (docs/benchmarks.md, "Dedup consumer"). A concurrent transaction inserting
   * the same id makes the plain INSERT wait for it, as {@code ON CONFLICT} does; if it commits, the
   * INSERT fails with a unique violation and the second statement skips the id.
   */
  private Set<String> insertIdsPostgres(Connection c, String group, List<String> ids)
      throws SQLException {
    String source = "(consumer_group, message_id) SELECT ?, u.id FROM unnest(?) AS u(id)";
    Savepoint before = c.setSavepoint();
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " " + source)) {
      ps.setString(1, group);
      ps.setArray(2, varchars(c, ids));
      ps.executeUpdate();
      return new HashSet<>(ids);
    } catch (SQLException e) {
      if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
        throw e;
      }
      c.rollback(before);
    }
    try (PreparedStatement ps =
        c.prepareStatement(dialect.insertIgnore(table, source) + " RETURNING message_id")) {
      ps.setString(1, group);
      ps.setArray(2, varchars(c, ids));
      return strings(ps);
    }
  }

  /**
   * A key's mark row: {@code row} is its {@code aggregate_id} as stored, which on MySQL/MariaDB may
   * differ from the key asked for in case or trailing spaces (the column collation compares them
   * equal), so two keys of one batch can share a row.
   */
  public record Mark(String row, long seq) {}

  /**
   * Locks the high-water marks of the keys until commit, creating absent ones at {@link #NO_MARK},
   * and returns them by the key asked for.
   */
  public Map<String, Mark> lockMarks(Connection c, String group, List<String> keys)
      throws SQLException {
    if (dialect == SqlDialect.POSTGRESQL) {
      String sql =
          lockingUpsert("SELECT ?, u.k, ? FROM unnest(?) AS u(k)") + " RETURNING aggregate_id, seq";
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setString(1, group);
        ps.setLong(2, NO_MARK);
        ps.setArray(3, varchars(c, keys));
        Map<String, Mark> out = new HashMap<>();
        marks(ps).forEach((key, seq) -> out.put(key, new Mark(key, seq)));
        return out;
      }
    }
    String insert = lockingUpsert("VALUES " + rows("(?, ?, ?)", keys.size()));
    try (PreparedStatement ps = c.prepareStatement(insert)) {
      int p = 1;
      for (String key : keys) {
        ps.setString(p++, group);
        ps.setString(p++, key);
        ps.setLong(p++, NO_MARK);
      }
      ps.executeUpdate();
    }
    String select =
        "SELECT aggregate_id, seq FROM "
            + marks
            + " WHERE consumer_group = ? AND aggregate_id IN ("
            + "?, ".repeat(keys.size() - 1)
            + "?) FOR UPDATE";
    try (PreparedStatement ps = c.prepareStatement(select)) {
      ps.setString(1, group);
      for (int i = 0; i < keys.size(); i++) {
        ps.setString(i + 2, keys.get(i));
      }
      Map<String, Long> rows = marks(ps);
      Map<String, Mark> out = new HashMap<>();
      for (String key : keys) {
        String row = rows.containsKey(key) ? key : storedKey(c, group, key);
        out.put(key, new Mark(row, rows.get(row)));
      }
      return out;
    }
  }

  /** The stored spelling of a key the collation matched to another spelling (rare). */
  private String storedKey(Connection c, String group, String key) throws SQLException {
    String sql =
        "SELECT aggregate_id FROM " + marks + " WHERE consumer_group = ? AND aggregate_id = ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, group);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("High-water mark row of key '" + key + "' vanished while locked");
        }
        return rs.getString(1);
      }
    }
  }

  /**
   * Sets the marks of rows locked by {@link #lockMarks} in this transaction, by {@link Mark#row}.
   */
  public void setMarks(Connection c, String group, Map<String, Long> advanced) throws SQLException {
    List<String> keys = new ArrayList<>(advanced.keySet());
    if (dialect == SqlDialect.POSTGRESQL) {
      String sql =
          "UPDATE "
              + marks
              + " AS h SET seq = u.s, updated_at = "
              + dialect.clockTimestamp()
              + " FROM unnest(?, ?) AS u(k, s)"
              + " WHERE h.consumer_group = ? AND h.aggregate_id = u.k";
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setArray(1, varchars(c, keys));
        ps.setArray(2, c.createArrayOf("bigint", keys.stream().map(advanced::get).toArray()));
        ps.setString(3, group);
        ps.executeUpdate();
      }
      return;
    }
    // Every row exists and is locked: the upsert only updates (VALUES() is deprecated in MySQL
    // 8.0.20+, still supported; MariaDB's own form).
    String sql =
        dialect.upsert(
            marks,
            "(consumer_group, aggregate_id, seq) VALUES " + rows("(?, ?, ?)", keys.size()),
            "consumer_group, aggregate_id",
            "seq = "
                + dialect.upsertProposed("seq")
                + ", updated_at = "
                + dialect.clockTimestamp());
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int p = 1;
      for (String key : keys) {
        ps.setString(p++, group);
        ps.setString(p++, key);
        ps.setLong(p++, advanced.get(key));
      }
      ps.executeUpdate();
    }
  }

  /** Inserts absent mark rows; an existing row is updated to itself, which locks it. */
  private String lockingUpsert(String source) {
    return dialect.upsert(
        marks,
        "(consumer_group, aggregate_id, seq) " + source,
        "consumer_group, aggregate_id",
        "seq = " + dialect.upsertExisting("seq"));
  }

  private static Array varchars(Connection c, List<String> values) throws SQLException {
    return c.createArrayOf("varchar", values.toArray());
  }

  private static String rows(String row, int n) {
    return (row + ", ").repeat(n - 1) + row;
  }

  private static Set<String> strings(PreparedStatement ps) throws SQLException {
    Set<String> out = new HashSet<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  private static Map<String, Long> marks(PreparedStatement ps) throws SQLException {
    Map<String, Long> out = new HashMap<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2));
      }
    }
    return out;
  }
}
