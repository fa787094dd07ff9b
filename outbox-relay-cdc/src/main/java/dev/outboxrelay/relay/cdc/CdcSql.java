package dev.outboxrelay.relay.cdc;

import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_ID;
import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_TYPE;
import static dev.outboxrelay.core.OutboxColumn.BUCKET;
import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.PAYLOAD;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;
import static dev.outboxrelay.core.OutboxColumn.TYPE;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.rows.OutboxRows;
import dev.outboxrelay.core.rows.RowsByKey;
import dev.outboxrelay.relay.engine.StateSql;
import java.util.Collections;

/**
 * The CDC relay's statements on the outbox table; those on the state tables it shares with the
 * polling relay and the operator come from {@link StateSql}. Every name is validated and quoted.
 */
final class CdcSql {
  final StateSql state;
  final SqlDialect dialect;
  final String outbox;
  final String offsets;
  final String history;
  final String published;
  private final OutboxTable table;
  private final boolean keepRows;

  CdcSql(OutboxTable table, SqlDialect dialect, boolean keepRows) {
    this.table = table;
    this.dialect = dialect;
    this.keepRows = keepRows;
    this.state = StateSql.of(table, dialect);
    this.outbox = state.outbox();
    this.offsets = table.qualifiedCompanion(dialect, "cdc_offsets");
    this.history = table.qualifiedCompanion(dialect, "cdc_history");
    this.published = table.qualifiedCompanion(dialect, "cdc_published");
  }

  OutboxTable table() {
    return table;
  }

  String col(OutboxColumn c) {
    return table.quoted(dialect, c);
  }

  private String pending() {
    return keepRows ? " AND " + dialect.quote("published_at") + " IS NULL" : "";
  }

  /** Whether pending rows are read with shared locks (MySQL/MariaDB): see {@link #lockEach}. */
  boolean locksToWait() {
    return dialect != SqlDialect.POSTGRESQL;
  }

  /**
   * PostgreSQL: which of these ids are still pending (not yet marked by any relay), read after
   * {@link #invisibleTxids} showed their transactions visible.
   */
  String stillPending(int ids) {
    return "SELECT "
        + col(ID)
        + " FROM "
        + outbox
        + " WHERE "
        + col(ID)
        + " IN ("
        + marks(ids)
        + ")"
        + pending();
  }

  /**
   * MySQL/MariaDB: which of {@code n} rows, each named by a unique key ({@code id} or {@code seq}),
   * are still pending; returns that key. A transaction's binlog events can reach the relay before
   * its InnoDB commit makes the row visible: a shared-lock read of the row waits for that commit
   * instead of taking the row for done.
   *
   * <p>Why one point SELECT per row, joined by UNION ALL, and not {@code key IN (...)}: a locking
   * read locks every row it reads, not only those it returns, and reading a row that another
   * transaction inserted and has not committed waits for that transaction to end. MariaDB 10.11
   * EXPLAINs {@code SELECT id ... WHERE id IN (2 ids) LOCK IN SHARE MODE} on a 3-row table, and 500
   * ids on 601 rows, as {@code type index}: a full scan of a secondary index (which holds the
   * primary key) that waited for every open writer's uncommitted insert, rows the stream had not
   * carried and might not carry for a long time, so delivery stood still until they ended ({@code
   * FORCE INDEX (PRIMARY)} did not change the plan). A SELECT by {@code key = ?} on a unique NOT
   * NULL key is read as a constant (EXPLAIN {@code const}) before any cost is weighed, whatever the
   * table's size or statistics, so each member reads and locks its own row only; a key not in the
   * table locks nothing (READ COMMITTED takes no gap locks, and InnoDB compares a unique search
   * with the record before it locks it). The parameter is compared in the column's collation (a
   * literal or parameter yields to a column), so the index stays usable whatever the connection's
   * character set: {@code const} with utf8mb4, latin1, ascii, utf8mb4_bin and
   * utf8mb4_unicode_520_ci tables under {@code SET NAMES} utf8mb4, utf8mb4_unicode_ci, latin1 and
   * binary, as literals and as server-side prepared parameters.
   */
  String lockEach(OutboxColumn key, int n) {
    String one =
        "(SELECT "
            + col(key)
            + " FROM "
            + outbox
            + " WHERE "
            + col(key)
            + " = ?"
            + pending()
            + " LOCK IN SHARE MODE)";
    return String.join(" UNION ALL ", Collections.nCopies(n, one));
  }

  /**
   * PostgreSQL: which of these transaction ids a new snapshot does not see yet. The WAL can carry a
   * commit (and logical decoding deliver it) a moment before the transaction becomes visible.
   */
  String invisibleTxids() {
    return "SELECT t FROM unnest(?::bigint[]) AS t"
        + " WHERE NOT txid_visible_in_snapshot(t, txid_current_snapshot())";
  }

  /**
   * The sequence number and key of every pending row of an unparked key, in one statement: the
   * start-up catch-up's consistent view of the table.
   */
  String pendingSeqs() {
    return "SELECT o."
        + col(SEQUENCE)
        + ", o."
        + col(AGGREGATE_ID)
        + " FROM "
        + outbox
        + " o WHERE "
        + notParked()
        + pending()
        + " ORDER BY o."
        + col(SEQUENCE);
  }

  /**
   * Pending rows by sequence number, in no particular order; column 8 is the sequence. A plain
   * (consistent, non-locking) read: on MySQL/MariaDB the rows' commits are waited for first, by
   * {@link #lockEach}, so this read may scan without waiting for anyone.
   */
  String pendingBySeq(int seqs) {
    return "SELECT "
        + rowColumns()
        + " FROM "
        + outbox
        + " o WHERE o."
        + col(SEQUENCE)
        + " IN ("
        + marks(seqs)
        + ")"
        + pending();
  }

  /** Pending rows of one key, oldest first. */
  String pendingOfKey() {
    return "SELECT "
        + rowColumns()
        + " FROM "
        + outbox
        + " o WHERE o."
        + col(AGGREGATE_ID)
        + " = ?"
        + pending()
        + " ORDER BY o."
        + col(SEQUENCE)
        + " LIMIT ?";
  }

  private String rowColumns() {
    return OutboxRows.selectList(table, dialect) + ", o." + col(BUCKET);
  }

  private String notParked() {
    return state.notParked("o");
  }

  /**
   * A fence row: written and deleted in one transaction, so no relay or reader of the table ever
   * sees it pending, while the change stream carries its INSERT in commit order.
   */
  String insertFence() {
    return "INSERT INTO "
        + outbox
        + " ("
        + col(ID)
        + ", "
        + col(AGGREGATE_TYPE)
        + ", "
        + col(AGGREGATE_ID)
        + ", "
        + col(TYPE)
        + ", "
        + col(PAYLOAD)
        + ") VALUES (?, ?, ?, ?, ?)";
  }

  String deleteFence() {
    return "DELETE FROM " + outbox + " WHERE " + col(ID) + " = ?";
  }

  /**
   * PostgreSQL: marks the rows whose ids are in one {@code uuid[]} parameter done, one statement (a
   * primary-key lookup per id, whatever the number of ids; no statement text per batch size).
   */
  String markDone() {
    return mark(" WHERE " + col(ID) + " = ANY(?)");
  }

  /**
   * MySQL/MariaDB: marks the rows named in a JSON array of ids done, one statement, one unique-key
   * lookup per row ({@link RowsByKey#markByIds}: whatever the table's size, statistics or character
   * set, it locks those rows only and never waits for a writer's uncommitted insert). It replaced
   * one point statement per row, run as a JDBC batch in one transaction.
   */
  String markByIds(RowsByKey rows) {
    return rows.markByIds(keepRows);
  }

  private String mark(String where) {
    return keepRows
        ? "UPDATE "
            + outbox
            + " SET "
            + dialect.quote("published_at")
            + " = "
            + dialect.now()
            + where
        : "DELETE FROM " + outbox + where;
  }

  String park() {
    return state.park();
  }

  String parkedKeys() {
    return state.parkedKeys();
  }

  /**
   * Debezium's JDBC stores' tables (the schema history on MySQL/MariaDB only), each with the
   * statement that creates it; created up front where missing (Debezium's own existence check is
   * unreliable on MySQL).
   */
  java.util.Map<String, String> storeTables() {
    java.util.Map<String, String> tables = new java.util.LinkedHashMap<>();
    tables.put(
        offsets,
        "CREATE TABLE IF NOT EXISTS "
            + offsets
            + " (id VARCHAR(36) NOT NULL, offset_key VARCHAR(1255),"
            + " offset_val VARCHAR(1255), record_insert_ts TIMESTAMP NOT NULL,"
            + " record_insert_seq INTEGER NOT NULL, PRIMARY KEY (id))");
    if (dialect != SqlDialect.POSTGRESQL) {
      tables.put(
          history,
          "CREATE TABLE IF NOT EXISTS "
              + history
              + " (id VARCHAR(36) NOT NULL, history_data mediumtext, history_data_seq INTEGER,"
              + " record_insert_ts TIMESTAMP NOT NULL, record_insert_seq INTEGER NOT NULL,"
              + " PRIMARY KEY (id, history_data_seq))");
    }
    return tables;
  }

  /** The published log's table; created by the relay's own pool, which alone uses it. */
  String publishedLogTable() {
    return "CREATE TABLE IF NOT EXISTS "
        + published
        + (dialect == SqlDialect.POSTGRESQL
            ? " (batch bigserial PRIMARY KEY, ids bytea NOT NULL)"
            : " (batch bigint NOT NULL AUTO_INCREMENT PRIMARY KEY, ids longblob NOT NULL)");
  }

  /**
   * The published log: one row per acknowledged batch, its ids (16 bytes each), until {@link
   * CdcStore#retain} marked them (see {@link Retention}).
   */
  String logPublished() {
    return "INSERT INTO " + published + " (ids) VALUES (?)";
  }

  String publishedBatches() {
    return "SELECT batch, ids FROM " + published + " ORDER BY batch LIMIT ?";
  }

  String forgetBatch() {
    return "DELETE FROM " + published + " WHERE batch = ?";
  }

  static String marks(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }
}
