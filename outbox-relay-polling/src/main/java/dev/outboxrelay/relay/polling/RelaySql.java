package dev.outboxrelay.relay.polling;

import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_ID;
import static dev.outboxrelay.core.OutboxColumn.BUCKET;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.rows.OutboxRows;
import dev.outboxrelay.relay.engine.StateSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The polling relay's SQL for one table and dialect; the state tables' names and statements shared
 * with the CDC relay and the operator come from {@link StateSql}. Every name is a validated, quoted
 * identifier.
 */
final class RelaySql {
  final StateSql state;
  final SqlDialect dialect;
  final String outbox;
  final String lease;
  final String relay;
  private final OutboxTable table;

  RelaySql(OutboxTable table, SqlDialect dialect) {
    this.table = table;
    this.dialect = dialect;
    this.state = StateSql.of(table, dialect);
    this.outbox = state.outbox();
    this.lease = state.lease();
    this.relay = state.relay();
  }

  OutboxTable table() {
    return table;
  }

  String col(dev.outboxrelay.core.OutboxColumn c) {
    return table.quoted(dialect, c);
  }

  /**
   * Pending rows of the given buckets, oldest first, skipping parked and backing-off keys and the
   * rows sent and acknowledged whose mark is still to come ({@code excludedSequences}).
   */
  String claim(
      int buckets, int excludedKeys, int excludedSequences, boolean strict, boolean keepPublished) {
    String pending = keepPublished ? " AND o." + published() + " IS NULL" : "";
    String excluded =
        excludedKeys == 0
            ? ""
            : " AND o." + col(AGGREGATE_ID) + " NOT IN (" + marks(excludedKeys) + ")";
    if (excludedSequences > 0) {
      excluded += " AND o." + col(SEQUENCE) + " NOT IN (" + marks(excludedSequences) + ")";
    }
    String horizon = strict ? " AND o." + col(SEQUENCE) + " <= ?" : "";
    return "SELECT "
        + OutboxRows.selectList(table, dialect)
        + ", o."
        + col(BUCKET)
        + " FROM "
        + outbox
        + " o WHERE o."
        + col(BUCKET)
        + " IN ("
        + marks(buckets)
        + ")"
        + pending
        + " AND "
        + state.notParked("o")
        + excluded
        + horizon
        + " ORDER BY o."
        + col(SEQUENCE)
        + " LIMIT ?";
  }

  /**
   * PostgreSQL: marks the rows whose {@code seq} values are in an array (one {@code bigint[]}
   * parameter) done (delete or set published_at), only while this relay owns their bucket. The
   * fence is {@code bucket = ANY(ARRAY(SELECT bucket FROM lease WHERE owner = ? AND expires_at >
   * now()))}: an InitPlan, the leases read once per statement (in the statement's snapshot, as a
   * per-row subquery would read them), and no join a planner could turn around. Rows are found by
   * the unique {@code seq} index in ascending order (so two relays lock rows in the same order).
   * The per-row scalar subquery used until 2026-12-06 was planned as a sequential scan of the 256
   * leases under every marked row, and the ids as 500 random lookups in the primary key: {@code
   * EXPLAIN ANALYZE} of a 500-row mark on a 100k-row table read 9.5-15 ms, this form 1.2 ms. An
   * {@code EXISTS} fence had been planned as a join that, with the lease table's statistics still
   * empty, nested-looped a sequential scan of the outbox under each lease (1.7 s per mark). Plain
   * reads take no row locks on PostgreSQL and rows of uncommitted inserts are invisible, not waited
   * for, so this one statement neither waits on writers nor blocks the lease renewal.
   *
   * <p>MySQL/MariaDB use {@link #heldBuckets} then {@link dev.outboxrelay.core.rows.RowsByKey#mark}
   * instead (see {@link RelayStore}).
   */
  String markDone(boolean keepPublished) {
    return mark(
        " WHERE "
            + col(SEQUENCE)
            + " = ANY(?) AND "
            + col(BUCKET)
            + " = ANY(ARRAY(SELECT l.bucket FROM "
            + lease
            + " l WHERE l.owner = ? AND l.expires_at > "
            + dialect.now()
            + "))",
        keepPublished);
  }

  /**
   * PostgreSQL: which of the rows whose {@code seq} values are in an array (one {@code bigint[]}
   * parameter) are still to be published; after a mark that marked fewer than it was given, those
   * are rows its fence refused.
   */
  String stillPending(boolean keepPublished) {
    return "SELECT "
        + col(SEQUENCE)
        + " FROM "
        + outbox
        + " WHERE "
        + col(SEQUENCE)
        + " = ANY(?)"
        + (keepPublished ? " AND " + published() + " IS NULL" : "");
  }

  private String mark(String where, boolean keepPublished) {
    return keepPublished
        ? "UPDATE " + outbox + " SET " + published() + " = " + dialect.now() + where
        : "DELETE FROM " + outbox + where;
  }

  /**
   * Which of the given buckets this relay holds now, on the database clock: the MySQL/MariaDB
   * fence, and on PostgreSQL which buckets' rows, gone before a mark that marked fewer than it was
   * given, count as done. A plain (consistent, non-locking) read in READ COMMITTED: it neither
   * waits for nor blocks the lease renewal. A subquery in a DELETE would be a locking read on
   * InnoDB (shared locks on the leases until the statement ends), which is how marks and renewals
   * used to wait on each other.
   */
  String heldBuckets(int buckets) {
    return "SELECT bucket FROM "
        + lease
        + " WHERE bucket IN ("
        + marks(buckets)
        + ") AND owner = ? AND expires_at > "
        + dialect.now();
  }

  /** Parks a key, only while this relay owns its bucket. */
  String park() {
    return state.parkWhileLeased();
  }

  String published() {
    return state.published();
  }

  void setId(PreparedStatement ps, int index, UUID id) throws SQLException {
    state.setId(ps, index, id);
  }

  /**
   * A connection for the relay's own statements: auto-commit, and READ COMMITTED so that InnoDB
   * never holds gap or next-key locks that would make the application's inserts wait or deadlock.
   */
  static Connection relayConnection(DataSource dataSource) throws SQLException {
    Connection c = dataSource.getConnection();
    c.setAutoCommit(true);
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    return c;
  }

  /** The value binding an id: a UUID where the column is one, its text otherwise. */
  Object idValue(UUID id) {
    return state.idValue(id);
  }

  static String marks(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }
}
