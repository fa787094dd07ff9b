package dev.outboxrelay.core;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDBC boilerplate of the relays' stores, written once: prepare, bind, run, read every row,
 * close; and a transaction that commits or rolls back. Stateless.
 */
public final class Jdbc {
  private Jdbc() {}

  /** Binds a statement's parameters. */
  @FunctionalInterface
  public interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  /** Reads the current row of a result set. */
  @FunctionalInterface
  public interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /**
   * Binds these values as parameters 1, 2, ... by their type: {@code String}, {@code Integer},
   * {@code Long}, {@code byte[]}, {@link Timestamp} and {@link Array} with their own setters,
   * anything else (a {@code UUID}) with {@code setObject}.
   */
  public static Binder params(Object... values) {
    return ps -> {
      for (int i = 0; i < values.length; i++) {
        set(ps, i + 1, values[i]);
      }
    };
  }

  /** Binds one value as {@link #params} does. */
  public static void set(PreparedStatement ps, int index, Object v) throws SQLException {
    if (v instanceof String s) {
      ps.setString(index, s);
    } else if (v instanceof Integer n) {
      ps.setInt(index, n);
    } else if (v instanceof Long n) {
      ps.setLong(index, n);
    } else if (v instanceof byte[] b) {
      ps.setBytes(index, b);
    } else if (v instanceof Timestamp t) {
      ps.setTimestamp(index, t);
    } else if (v instanceof Array a) {
      ps.setArray(index, a);
    } else {
      ps.setObject(index, v);
    }
  }

  /** Every row of a query, each read by {@code row}. */
  public static <T> List<T> query(Connection c, String sql, Binder binder, RowReader<T> row)
      throws SQLException {
    List<T> rows = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(row.read(rs));
        }
      }
    }
    return rows;
  }

  /** Runs an INSERT, UPDATE or DELETE; returns the rows it changed. */
  public static int update(Connection c, String sql, Binder binder) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      return ps.executeUpdate();
    }
  }

  /**
   * Runs {@code work} in one transaction on {@code c}: commits, or rolls back and rethrows; either
   * way the connection's auto-commit is as it was before.
   */
  public static <T> T inTransaction(Connection c, SqlFunction<Connection, T> work)
      throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    T result;
    try {
      result = work.apply(c);
      c.commit();
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException r) {
        e.addSuppressed(r);
      }
      try {
        c.setAutoCommit(autoCommit);
      } catch (SQLException r) {
        e.addSuppressed(r);
      }
      throw e;
    }
    c.setAutoCommit(autoCommit);
    return result;
  }
}
