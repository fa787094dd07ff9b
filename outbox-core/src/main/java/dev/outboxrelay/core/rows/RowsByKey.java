package dev.outboxrelay.core.rows;

import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * MySQL/MariaDB: a statement's outbox rows named by a unique key, {@code id} or {@code seq}, all in
 * one parameter: a JSON array ({@link #json}) made a table by {@code JSON_TABLE} (MariaDB 10.6+,
 * MySQL 8) and joined to the outbox as {@code o} ({@link #join}). Both relays mark and purge rows
 * this way. Immutable; {@link #read} it once per table.
 *
 * <p>The rows are named by the key InnoDB stores the table by, its primary key: {@code seq} since
 * {@code V7__cluster_by_seq.sql}, {@code id} in a table made before it (or by a DBA) and left so.
 * One lookup per row in the clustered index, where a lookup by the other key would first descend a
 * secondary index. A caller that knows only the ids ({@link #markByIds}) names them by id, through
 * the unique index on {@code id}.
 *
 * <p>The join is written so that its plan is the same whatever the table's size, statistics or
 * character set: the array first ({@code STRAIGHT_JOIN}), then one unique-key lookup ({@code
 * eq_ref}) per value ({@code FORCE INDEX}), in the array's order. So each named row is locked
 * alone, in ascending key order (two statements locking the same rows by the same key cannot
 * deadlock), and no writer's uncommitted insert is ever waited for. What each part prevents, seen
 * on MariaDB 10.11 with {@code EXPLAIN}:
 *
 * <ul>
 *   <li>a plain {@code WHERE id IN (...)} is planned as a full scan once the list is most of the
 *       table, and a locking scan waits for every uncommitted insert it meets;
 *   <li>without {@code FORCE INDEX}, a multi-table {@code UPDATE} (the {@code published_at} mark)
 *       of a table of five rows or fewer was planned as a full scan, and waited for an open
 *       writer's insert until the lock wait timeout ({@code DELETE} kept the lookup);
 *   <li>the array's id column is {@code CHARACTER SET ascii}: ascii converts to the id column's
 *       character set. With the connection's {@code utf8mb4} and an id column in {@code latin1},
 *       the column was converted instead, and the lookup became a full scan.
 * </ul>
 */
public final class RowsByKey {
  private static final String PRIMARY = "PRIMARY";

  private final OutboxTable table;
  private final SqlDialect dialect;
  private final OutboxColumn key;
  private final String idIndex;
  private final String seqIndex;

  private RowsByKey(
      OutboxTable table, SqlDialect dialect, OutboxColumn key, String idIndex, String seqIndex) {
    this.table = table;
    this.dialect = dialect;
    this.key = key;
    this.idIndex = idIndex;
    this.seqIndex = seqIndex;
  }

  /**
   * The table's unique indexes as {@code information_schema} lists them; on PostgreSQL, which names
   * rows by arrays and needs none of this, an instance whose joins are not to be used.
   *
   * @throws OutboxConfigException if no unique index holds {@code id} alone, or none {@code seq}
   *     alone (the table contract: both are unique)
   */
  public static RowsByKey read(Connection c, OutboxTable table, SqlDialect dialect)
      throws SQLException {
    if (dialect == SqlDialect.POSTGRESQL) {
      return new RowsByKey(table, dialect, ID, null, null);
    }
    Map<String, String> uniqueIndexes = new LinkedHashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT INDEX_NAME, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX)"
                + " FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?"
                + " AND NON_UNIQUE = 0 GROUP BY INDEX_NAME ORDER BY INDEX_NAME")) {
      ps.setString(1, table.schema().orElse(null));
      ps.setString(2, table.name());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          uniqueIndexes.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    return of(table, dialect, uniqueIndexes);
  }

  /**
   * For a table whose unique indexes are these, index name to its columns (comma-separated, in
   * index order); {@link #read} reads them from the database.
   */
  public static RowsByKey of(
      OutboxTable table, SqlDialect dialect, Map<String, String> uniqueIndexes) {
    String idIndex = indexOn(table.column(ID), uniqueIndexes).orElse(null);
    String seqIndex = indexOn(table.column(SEQUENCE), uniqueIndexes).orElse(null);
    if (idIndex == null || seqIndex == null) {
      throw new OutboxConfigException(
          "table",
          table.qualifiedName(dialect),
          "must have a unique index on its "
              + (idIndex == null ? table.column(ID) : table.column(SEQUENCE))
              + " column alone (the table contract; unique indexes found: "
              + uniqueIndexes
              + ")");
    }
    OutboxColumn key = PRIMARY.equals(seqIndex) ? SEQUENCE : ID;
    return new RowsByKey(table, dialect, key, idIndex, seqIndex);
  }

  /**
   * A table's keys, {@link #read} at first use and kept: each relay's store holds one. A table
   * clustered by {@code seq} while its relays run is read again only when they restart, which is
   * why {@code V7__cluster_by_seq.sql} wants them stopped (outbox-writer README). Thread-safe.
   */
  public static final class Once {
    private final OutboxTable table;
    private final SqlDialect dialect;
    private volatile RowsByKey rows;

    public Once(OutboxTable table, SqlDialect dialect) {
      this.table = table;
      this.dialect = dialect;
    }

    /** The keys, read on {@code c} the first time (two first calls at once both read them). */
    public RowsByKey get(Connection c) throws SQLException {
      RowsByKey r = rows;
      if (r == null) {
        r = read(c, table, dialect);
        rows = r;
      }
      return r;
    }
  }

  /** The unique index whose only column is this one, the primary key first. */
  private static Optional<String> indexOn(String column, Map<String, String> uniqueIndexes) {
    String wanted = column.toLowerCase(Locale.ROOT); // MySQL column names ignore case
    if (wanted.equals(lower(uniqueIndexes.get(PRIMARY)))) {
      return Optional.of(PRIMARY);
    }
    return uniqueIndexes.entrySet().stream()
        .filter(e -> wanted.equals(lower(e.getValue())))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  private static String lower(String s) {
    return s == null ? null : s.toLowerCase(Locale.ROOT);
  }

  public OutboxTable table() {
    return table;
  }

  public SqlDialect dialect() {
    return dialect;
  }

  /** The key rows are named by: the primary key's column, {@code seq} or {@code id}. */
  public OutboxColumn key() {
    return key;
  }

  /**
   * {@code JSON_TABLE(?, ...) AS v STRAIGHT_JOIN <outbox> o FORCE INDEX (...) ON o.<by> = v.i}: the
   * first parameter is a JSON array of {@code by} values; follow it with {@code DELETE o FROM}, or
   * {@code UPDATE} and a {@code SET o.<column> = ...}, and any {@code WHERE} on {@code o}.
   */
  public String join(OutboxColumn by) {
    String type = by == SEQUENCE ? "BIGINT" : "CHAR(36) CHARACTER SET ascii";
    String index = by == SEQUENCE ? seqIndex : idIndex;
    return "JSON_TABLE(?, '$[*]' COLUMNS (i "
        + type
        + " PATH '$')) AS v STRAIGHT_JOIN "
        + table.qualifiedName(dialect)
        + " o FORCE INDEX ("
        + (PRIMARY.equals(index) ? PRIMARY : dialect.quote(index))
        + ") ON o."
        + table.quoted(dialect, by)
        + " = v.i";
  }

  /**
   * Marks the rows named by {@link #json(Collection, Function, ToLongFunction)} (the one
   * parameter): {@code DELETE o FROM} the {@link #join}, or with {@code keepPublished} an {@code
   * UPDATE} of it that sets {@code published_at}.
   */
  public String mark(boolean keepPublished) {
    return mark(key, keepPublished);
  }

  /** As {@link #mark(boolean)}, the rows named by {@link #json(Collection)} of their ids. */
  public String markByIds(boolean keepPublished) {
    return mark(ID, keepPublished);
  }

  private String mark(OutboxColumn by, boolean keepPublished) {
    return keepPublished
        ? "UPDATE " + join(by) + " SET o." + dialect.quote("published_at") + " = " + dialect.now()
        : "DELETE o FROM " + join(by);
  }

  /**
   * Deletes the rows named by {@link #json(Collection, Function, ToLongFunction)} (the first
   * parameter) that are still published longer ago than the second parameter, in milliseconds: a
   * purge's candidates, checked again.
   */
  public String purge() {
    return "DELETE o FROM "
        + join(key)
        + " WHERE o."
        + dialect.quote("published_at")
        + " < "
        + dialect.nowMinusMillis();
  }

  /** The rows' {@link #key} values as a JSON array in ascending order. */
  public <T> String json(Collection<T> rows, Function<T, UUID> id, ToLongFunction<T> seq) {
    return key == SEQUENCE
        ? jsonOfSequences(rows.stream().map(r -> seq.applyAsLong(r)).toList())
        : json(rows.stream().map(id).toList());
  }

  /** The sequence values as a JSON array in ascending order. */
  public static String jsonOfSequences(Collection<Long> seqs) {
    return seqs.stream().sorted().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
  }

  /** The ids as a JSON array in ascending order; a uuid's characters need no escaping. */
  public static String json(Collection<UUID> ids) {
    if (ids.isEmpty()) {
      return "[]";
    }
    return ids.stream()
        .map(UUID::toString)
        .sorted()
        .collect(Collectors.joining("\",\"", "[\"", "\"]"));
  }
}
