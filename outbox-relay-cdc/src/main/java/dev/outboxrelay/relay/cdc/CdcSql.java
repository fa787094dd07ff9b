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
import dev.outboxrelay.core.internal.OutboxRows;
import java.util.Collections;

/** The CDC relay's statements on the outbox table; every name is validated and quoted. */
final class CdcSql {
  final SqlDialect dialect;
  final String outbox;
  final String parked;
  final String offsets;
  final String history;
  private final OutboxTable table;
  private final boolean keepRows;

  CdcSql(OutboxTable table, SqlDialect dialect, boolean keepRows) {
    this.table = table;
    this.dialect = dialect;
    this.keepRows = keepRows;
    this.outbox = table.qualifiedName(dialect);
    this.parked = table.qualifiedCompanion(dialect, "parked");
    this.offsets = table.qualifiedCompanion(dialect, "cdc_offsets");
    this.history = table.qualifiedCompanion(dialect, "cdc_history");
  }

  String col(OutboxColumn c) {
    return table.quoted(dialect, c);
  }

  private String pending() {
    return keepRows ? " AND " + dialect.quote("published_at") + " IS NULL" : "";
  }

  /**
   * Which of these ids are still pending (not yet marked by any relay). On MySQL/MariaDB a
   * transaction's binlog events can reach the relay before its InnoDB commit makes the row visible;
   * a shared-lock read waits for that commit instead of taking the row for done.
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
        + pending()
        + waitForCommit();
  }

  private String waitForCommit() {
    return dialect == SqlDialect.POSTGRESQL ? "" : " LOCK IN SHARE MODE";
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
   * The sequence numbers of every pending row of an unparked key, in one statement: the start-up
   * catch-up's consistent view of the table.
   */
  String pendingSeqs() {
    return "SELECT o."
        + col(SEQUENCE)
        + " FROM "
        + outbox
        + " o WHERE "
        + notParked()
        + pending()
        + " ORDER BY o."
        + col(SEQUENCE);
  }

  /** Pending rows by sequence number, in no particular order; column 8 is the sequence. */
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
        + pending()
        + waitForCommit();
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
    return "NOT EXISTS (SELECT 1 FROM "
        + parked
        + " p WHERE p.aggregateid = o."
        + col(AGGREGATE_ID)
        + ")";
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

  String markDone(int ids) {
    String where = " WHERE " + col(ID) + " IN (" + marks(ids) + ")";
    return keepRows
        ? "UPDATE " + outbox + " SET " + dialect.quote("published_at") + " = " + now() + where
        : "DELETE FROM " + outbox + where;
  }

  String park() {
    String columns = "(aggregateid, message_id, bucket, reason) VALUES (?, ?, ?, ?)";
    return dialect == SqlDialect.POSTGRESQL
        ? "INSERT INTO " + parked + " " + columns + " ON CONFLICT DO NOTHING"
        : "INSERT IGNORE INTO " + parked + " " + columns;
  }

  String parkedKeys() {
    return "SELECT aggregateid FROM " + parked;
  }

  String purge() {
    String published = dialect.quote("published_at");
    return dialect == SqlDialect.POSTGRESQL
        ? "DELETE FROM "
            + outbox
            + " WHERE "
            + col(ID)
            + " IN (SELECT "
            + col(ID)
            + " FROM "
            + outbox
            + " WHERE "
            + published
            + " < now() - ? * interval '1 millisecond' LIMIT ?)"
        : "DELETE FROM "
            + outbox
            + " WHERE "
            + published
            + " < CURRENT_TIMESTAMP(6) - INTERVAL ? * 1000 MICROSECOND LIMIT ?";
  }

  /**
   * Debezium's JDBC stores' tables; created up front (its own existence check is unreliable on
   * MySQL).
   */
  java.util.List<String> storeTables() {
    String history = dialect == SqlDialect.POSTGRESQL ? "text" : "mediumtext";
    return java.util.List.of(
        "CREATE TABLE IF NOT EXISTS "
            + offsets
            + " (id VARCHAR(36) NOT NULL, offset_key VARCHAR(1255),"
            + " offset_val VARCHAR(1255), record_insert_ts TIMESTAMP NOT NULL,"
            + " record_insert_seq INTEGER NOT NULL, PRIMARY KEY (id))",
        "CREATE TABLE IF NOT EXISTS "
            + this.history
            + " (id VARCHAR(36) NOT NULL, history_data "
            + history
            + ", history_data_seq INTEGER, record_insert_ts TIMESTAMP NOT NULL,"
            + " record_insert_seq INTEGER NOT NULL, PRIMARY KEY (id, history_data_seq))");
  }

  String now() {
    return dialect == SqlDialect.POSTGRESQL ? "now()" : "CURRENT_TIMESTAMP(6)";
  }

  static String marks(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }
}
