package dev.outboxrelay.relay.polling;

import static dev.outboxrelay.core.SqlTemplate.marks;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlTemplate;
import dev.outboxrelay.relay.engine.StateSql;
import dev.outboxrelay.relay.engine.TableStore;
import java.sql.Connection;
import java.sql.SQLException;
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
  private final SqlTemplate sql;

  RelaySql(OutboxTable table, SqlDialect dialect) {
    this.dialect = dialect;
    this.state = StateSql.of(table, dialect);
    this.sql = state.template();
    this.outbox = state.outbox();
    this.lease = state.lease();
    this.relay = state.relay();
  }

  /**
   * Pending rows of the given buckets, oldest first, skipping parked and backing-off keys and the
   * rows sent and acknowledged whose mark is still to come ({@code excludedSequences}).
   */
  String claim(
      int buckets, int excludedKeys, int excludedSequences, boolean strict, boolean keepPublished) {
    return sql.sql(
        "SELECT {row_columns} FROM {outbox} o WHERE o.{bucket} IN ("
            + marks(buckets)
            + ")"
            + (keepPublished ? " AND o.{published_at} IS NULL" : "")
            + " AND {not_parked}"
            + (excludedKeys == 0
                ? ""
                : " AND o.{aggregate_id} NOT IN (" + marks(excludedKeys) + ")")
            + (excludedSequences == 0
                ? ""
                : " AND o.{sequence} NOT IN (" + marks(excludedSequences) + ")")
            + (strict ? " AND o.{sequence} <= ?" : "")
            + " ORDER BY o.{sequence} LIMIT ?");
  }

  /**
   * PostgreSQL: marks the rows whose {@code seq} values are in an array (one {@code bigint[]}
   * parameter) done (delete or set published_at), only while this relay owns their bucket. The
   * fence is {@code bucket = ANY(ARRAY(SELECT bucket FROM lease WHERE owner = ? AND expires_at >
   * now()))}: an InitPlan, the leases read once per statement (in the statement's snapshot, as a
   * per-row subquery would read them), and no join a planner could turn around. Rows are found by
   * the unique {@code seq} index in ascending order (so two relays lock rows in the same order). A
   * per-row scalar subquery, the earlier form, was planned as a sequential scan of the 256 leases
   * under every marked row, and the ids as 500 random lookups in the primary key: {@code EXPLAIN
   * ANALYZE} of a 500-row mark on a 100k-row table read 9.5-15 ms, this form 1.2 ms. An {@code
   * EXISTS} fence had been planned as a join that, with the lease table's statistics still empty,
   * nested-looped a sequential scan of the outbox under each lease (1.7 s per mark). Plain reads
   * take no row locks on PostgreSQL and rows of uncommitted inserts are invisible, not waited for,
   * so this one statement neither waits on writers nor blocks the lease renewal.
   *
   * <p>MySQL/MariaDB use {@link #heldBuckets} then {@link dev.outboxrelay.core.rows.RowsByKey#mark}
   * instead (see {@link RelayStore}).
   */
  String markDone(boolean keepPublished) {
    return state.mark(
        keepPublished,
        sql.sql(
            " WHERE {sequence} = ANY(?) AND {bucket} = ANY(ARRAY(SELECT l.bucket FROM {lease} l"
                + " WHERE l.owner = ? AND l.expires_at > {now}))"));
  }

  /**
   * PostgreSQL: which of the rows whose {@code seq} values are in an array (one {@code bigint[]}
   * parameter) are still to be published; after a mark that marked fewer than it was given, those
   * are rows its fence refused.
   */
  String stillPending(boolean keepPublished) {
    return sql.sql(
        "SELECT {sequence} FROM {outbox} WHERE {sequence} = ANY(?)"
            + (keepPublished ? " AND {published_at} IS NULL" : ""));
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
    return sql.sql(
        "SELECT bucket FROM {lease} WHERE bucket IN ("
            + marks(buckets)
            + ")"
            + " AND owner = ? AND expires_at > {now}");
  }

  /** The highest {@code seq} in the table, 0 when it is empty: the strict order's prefix. */
  String maxSequence() {
    return sql.sql("SELECT COALESCE(MAX({sequence}), 0) FROM {outbox}");
  }

  /** A connection for the relay's own statements ({@link TableStore#readCommitted}). */
  static Connection relayConnection(DataSource dataSource) throws SQLException {
    return TableStore.readCommitted(dataSource);
  }
}
