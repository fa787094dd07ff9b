package dev.outboxrelay.core;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Point statements in one transaction: one statement, run once per parameter row as a JDBC batch,
 * committed together. Used where a statement must name one row by its primary key so that
 * MySQL/MariaDB lock that row only (an {@code IN (...)} list can be planned as a locking scan that
 * waits for unrelated writers' uncommitted inserts). Rows go in a fixed ascending key order, so two
 * callers locking the same rows take them in the same order and cannot deadlock. Stateless.
 */
public final class SqlBatch {
  private SqlBatch() {}

  /**
   * Runs {@code statement} once per key, keys in ascending order (duplicates kept), the key as the
   * first parameter and {@code rest} as the following ones, in one transaction on {@code c}.
   *
   * @return how many statements ran (the number of keys)
   */
  public static <K extends Comparable<? super K>> int eachKeyInOrder(
      Connection c, String statement, Collection<K> keys, Object... rest) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    for (K key : keys.stream().sorted().toList()) {
      List<Object> row = new ArrayList<>(rest.length + 1);
      row.add(key);
      row.addAll(Arrays.asList(rest)); // a null parameter is allowed
      rows.add(row);
    }
    inOneTransaction(c, statement, rows);
    return rows.size();
  }

  /**
   * Runs {@code statement} once per parameter row, in the order given (the caller sorts), as one
   * batch in one transaction on {@code c}; nothing at all for no rows. Commits, or rolls back and
   * rethrows; either way the connection's auto-commit is as it was before. Meant for a connection
   * of its own: work of a transaction already open on {@code c} commits or rolls back with it.
   */
  public static void inOneTransaction(Connection c, String statement, List<List<Object>> rows)
      throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    Jdbc.inTransaction(
        c,
        conn -> {
          try (PreparedStatement ps = conn.prepareStatement(statement)) {
            for (List<Object> row : rows) {
              for (int i = 0; i < row.size(); i++) {
                ps.setObject(i + 1, row.get(i));
              }
              ps.addBatch();
            }
            return ps.executeBatch();
          }
        });
  }
}
