package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.Jdbc.params;
import static dev.outboxrelay.relay.engine.StateSql.reason;

import dev.outboxrelay.core.Jdbc;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.core.rows.PublishedRows;
import dev.outboxrelay.core.rows.RowsByKey;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * What both relays do alike on an outbox table and its state tables ({@link StateSql}): the
 * connection every relay statement runs on, parking a key, the parked keys, marking rows done by id
 * and purging kept rows. Thread-safe.
 */
public final class TableStore {
  private final DataSource dataSource;
  private final StateSql sql;
  private final boolean keepRows;

  /** How rows are named in statements, read from the table at first use. */
  private final RowsByKey.Once rowKeys;

  public TableStore(DataSource dataSource, StateSql sql, boolean keepRows) {
    this.dataSource = dataSource;
    this.sql = sql;
    this.keepRows = keepRows;
    this.rowKeys = new RowsByKey.Once(sql.table(), sql.dialect());
  }

  /**
   * A pooled connection in auto-commit and READ COMMITTED, as every relay statement runs: InnoDB
   * then never holds gap or next-key locks that would make the application's inserts wait or
   * deadlock.
   */
  public static Connection readCommitted(DataSource dataSource) throws SQLException {
    Connection c = dataSource.getConnection();
    c.setAutoCommit(true);
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    return c;
  }

  /** A connection of this store's pool ({@link #readCommitted}). */
  public Connection connection() throws SQLException {
    return readCommitted(dataSource);
  }

  /** How rows are named in statements on MySQL/MariaDB, read on {@code c} at first use. */
  public RowsByKey rowKeys(Connection c) throws SQLException {
    return rowKeys.get(c);
  }

  /**
   * Parks the row's key by {@code statement} ({@link StateSql#park}, or {@link
   * StateSql#parkWhileLeased} with the lease's bucket and owner as {@code fence}); returns whether
   * it inserted the parked row or, fenced, whether the key is parked now (parked already).
   */
  public boolean park(String statement, PendingRow row, String reason, Object... fence)
      throws SQLException {
    Object[] values =
        Stream.concat(
                Stream.of(row.aggregateId(), sql.idValue(row.id()), row.bucket(), reason(reason)),
                Stream.of(fence))
            .toArray();
    try (Connection c = connection()) {
      return Jdbc.update(c, statement, params(values)) == 1
          || fence.length > 0
              && !Jdbc.query(c, sql.isParked(), params(row.aggregateId()), rs -> 1).isEmpty();
    }
  }

  /** Every parked key. */
  public Set<String> parkedKeys() throws SQLException {
    try (Connection c = connection()) {
      return new HashSet<>(Jdbc.query(c, sql.parkedKeys(), params(), rs -> rs.getString(1)));
    }
  }

  /**
   * Marks the rows of these ids done on {@code c}, in one statement: PostgreSQL by one {@code
   * uuid[]} parameter ({@link StateSql#markByIdArray}), MySQL/MariaDB by a JSON array of them, one
   * unique-key lookup per row ({@link RowsByKey#markByIds}: whatever the table's size, statistics
   * or character set, it locks those rows only and never waits for a writer's uncommitted insert).
   * In a transaction already open on {@code c}, the mark joins it.
   */
  public void markDone(Connection c, List<UUID> ids) throws SQLException {
    if (ids.isEmpty()) {
      return;
    }
    if (sql.dialect() == SqlDialect.POSTGRESQL) {
      Jdbc.update(c, sql.markByIdArray(keepRows), params(c.createArrayOf("uuid", ids.toArray())));
    } else {
      Jdbc.update(c, rowKeys(c).markByIds(keepRows), params(RowsByKey.json(ids)));
    }
  }

  /**
   * Deletes at most {@code limit} rows published longer ago than the window; returns how many
   * ({@link PublishedRows#purge}).
   */
  public int purge(Duration window, int limit) throws SQLException {
    try (Connection c = connection()) {
      return PublishedRows.purge(c, rowKeys(c), window, limit);
    }
  }
}
