package dev.outboxrelay.core.rows;

import static dev.outboxrelay.core.OutboxColumn.ID;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.util.Collection;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * MySQL/MariaDB: a statement's outbox rows named by their ids, all in one parameter: a JSON array
 * ({@link #json}) made a table by {@code JSON_TABLE} (MariaDB 10.6+, MySQL 8) and joined to the
 * outbox as {@code o} ({@link #join}). Both relays mark and purge rows this way. Stateless.
 *
 * <p>The join is written so that its plan is the same whatever the table's size, statistics or
 * character set: the array first ({@code STRAIGHT_JOIN}), then one primary-key lookup ({@code
 * eq_ref}) per id ({@code FORCE INDEX (PRIMARY)}), in the array's order. So each named row is
 * locked alone, in ascending id order (two statements locking the same rows cannot deadlock), and
 * no writer's uncommitted insert is ever waited for. What each part prevents, seen on MariaDB 10.11
 * with {@code EXPLAIN}:
 *
 * <ul>
 *   <li>a plain {@code WHERE id IN (...)} is planned as a full scan once the list is most of the
 *       table, and a locking scan waits for every uncommitted insert it meets;
 *   <li>without {@code FORCE INDEX}, a multi-table {@code UPDATE} (the {@code published_at} mark)
 *       of a table of five rows or fewer was planned as a full scan, and waited for an open
 *       writer's insert until the lock wait timeout ({@code DELETE} kept the lookup);
 *   <li>the array's column is {@code CHARACTER SET ascii}: ascii converts to the id column's
 *       character set. With the connection's {@code utf8mb4} and an id column in {@code latin1},
 *       the column was converted instead, and the lookup became a full scan.
 * </ul>
 */
public final class RowsById {
  private RowsById() {}

  /**
   * {@code JSON_TABLE(?, ...) AS v STRAIGHT_JOIN <outbox> o ON o.id = v.i}: the first parameter is
   * {@link #json}; follow it with {@code DELETE o FROM}, or {@code UPDATE} and a {@code SET
   * o.<column> = ...}, and any {@code WHERE} on {@code o}.
   */
  public static String join(OutboxTable table, SqlDialect dialect) {
    return "JSON_TABLE(?, '$[*]' COLUMNS (i CHAR(36) CHARACTER SET ascii PATH '$')) AS v"
        + " STRAIGHT_JOIN "
        + table.qualifiedName(dialect)
        + " o FORCE INDEX (PRIMARY) ON o."
        + table.quoted(dialect, ID)
        + " = v.i";
  }

  /**
   * Marks the rows named by {@link #json} (the one parameter): {@code DELETE o FROM} the {@link
   * #join}, or with {@code keepPublished} an {@code UPDATE} of it that sets {@code published_at}.
   */
  public static String mark(OutboxTable table, SqlDialect dialect, boolean keepPublished) {
    return keepPublished
        ? "UPDATE "
            + join(table, dialect)
            + " SET o."
            + dialect.quote("published_at")
            + " = "
            + dialect.now()
        : "DELETE o FROM " + join(table, dialect);
  }

  /**
   * Deletes the rows named by {@link #json} (the first parameter) that are still published longer
   * ago than the second parameter, in milliseconds: a purge's candidates, checked again.
   */
  public static String purge(OutboxTable table, SqlDialect dialect) {
    return "DELETE o FROM "
        + join(table, dialect)
        + " WHERE o."
        + dialect.quote("published_at")
        + " < "
        + dialect.nowMinusMillis();
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
