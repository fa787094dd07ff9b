package dev.outboxrelay.relay.cdc;

import static dev.outboxrelay.core.SqlTemplate.marks;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlTemplate;
import dev.outboxrelay.relay.engine.StateSql;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CDC relay's statements on the outbox table; those on the state tables it shares with the
 * polling relay and the operator come from {@link StateSql}. Every name is validated and quoted.
 */
final class CdcSql {
  final StateSql state;
  final SqlDialect dialect;
  final boolean keepRows;
  final String outbox;
  final String offsets;
  final String history;
  final String published;

  /**
   * {@link StateSql#template}, the relay's own tables, and {@code {pending}}: the row is pending.
   */
  private final SqlTemplate sql;

  CdcSql(OutboxTable table, SqlDialect dialect, boolean keepRows) {
    this.dialect = dialect;
    this.keepRows = keepRows;
    this.state = StateSql.of(table, dialect);
    this.sql =
        state
            .template()
            .withCompanions("cdc_offsets", "cdc_history", "cdc_published")
            .with("pending", keepRows ? " AND {published_at} IS NULL" : "");
    this.outbox = state.outbox();
    this.offsets = sql.sql("{cdc_offsets}");
    this.history = sql.sql("{cdc_history}");
    this.published = sql.sql("{cdc_published}");
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
    return sql.sql("SELECT {id} FROM {outbox} WHERE {id} IN (" + marks(ids) + "){pending}");
  }

  /**
   * MySQL/MariaDB: which of {@code n} rows, each named by a unique key ({@code id} or {@code seq}),
   * are still pending; returns that key. A transaction's binlog events can reach the relay before
   * its InnoDB commit makes the row visible: a shared-lock read of the row waits for that commit
   * instead of taking the row for done. One point SELECT per row, joined by UNION ALL, never {@code
   * key IN (...)}: an IN list can be planned as a locking scan that waits for every open writer's
   * uncommitted insert (measured in outbox-relay-cdc/docs/mysql-mariadb-locking.md).
   */
  String lockEach(OutboxColumn key, int n) {
    String one =
        sql.sql(
            "(SELECT %1$s FROM {outbox} WHERE %1$s = ?{pending} LOCK IN SHARE MODE)"
                .formatted(state.col(key)));
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
    return sql.sql(
        "SELECT o.{sequence}, o.{aggregate_id} FROM {outbox} o WHERE {not_parked}{pending}"
            + " ORDER BY o.{sequence}");
  }

  /**
   * Pending rows by sequence number, in no particular order; column 8 is the sequence. A plain
   * (consistent, non-locking) read: on MySQL/MariaDB the rows' commits are waited for first, by
   * {@link #lockEach}, so this read may scan without waiting for anyone.
   */
  String pendingBySeq(int seqs) {
    return sql.sql(
        "SELECT {row_columns} FROM {outbox} o WHERE o.{sequence} IN ("
            + marks(seqs)
            + "){pending}");
  }

  /** Pending rows of one key, oldest first. */
  String pendingOfKey() {
    return sql.sql(
        "SELECT {row_columns} FROM {outbox} o WHERE o.{aggregate_id} = ?{pending}"
            + " ORDER BY o.{sequence} LIMIT ?");
  }

  /**
   * A fence row: written and deleted in one transaction, so no relay or reader of the table ever
   * sees it pending, while the change stream carries its INSERT in commit order.
   */
  String insertFence() {
    return sql.sql(
        "INSERT INTO {outbox} ({id}, {aggregate_type}, {aggregate_id}, {type}, {payload})"
            + " VALUES (?, ?, ?, ?, ?)");
  }

  String deleteFence() {
    return sql.sql("DELETE FROM {outbox} WHERE {id} = ?");
  }

  /**
   * Debezium's JDBC stores' tables (the schema history on MySQL/MariaDB only), each with the
   * statement that creates it; created up front where missing (Debezium's own existence check is
   * unreliable on MySQL).
   */
  Map<String, String> storeTables() {
    Map<String, String> tables = new LinkedHashMap<>();
    tables.put(
        offsets,
        sql.sql(
            "CREATE TABLE IF NOT EXISTS {cdc_offsets} (id VARCHAR(36) NOT NULL,"
                + " offset_key VARCHAR(1255), offset_val VARCHAR(1255),"
                + " record_insert_ts TIMESTAMP NOT NULL, record_insert_seq INTEGER NOT NULL,"
                + " PRIMARY KEY (id))"));
    if (dialect != SqlDialect.POSTGRESQL) {
      tables.put(
          history,
          sql.sql(
              "CREATE TABLE IF NOT EXISTS {cdc_history} (id VARCHAR(36) NOT NULL,"
                  + " history_data mediumtext, history_data_seq INTEGER,"
                  + " record_insert_ts TIMESTAMP NOT NULL, record_insert_seq INTEGER NOT NULL,"
                  + " PRIMARY KEY (id, history_data_seq))"));
    }
    return tables;
  }

  /** The published log's table; created by the relay's own pool, which alone uses it. */
  String publishedLogTable() {
    return sql.sql("CREATE TABLE IF NOT EXISTS {cdc_published}")
        + (dialect == SqlDialect.POSTGRESQL
            ? " (batch bigserial PRIMARY KEY, ids bytea NOT NULL)"
            : " (batch bigint NOT NULL AUTO_INCREMENT PRIMARY KEY, ids longblob NOT NULL)");
  }

  /**
   * The published log: one row per acknowledged batch, its ids (16 bytes each), until {@link
   * CdcStore#retain} marked them (see {@link dev.outboxrelay.relay.engine.Retention}).
   */
  String logPublished() {
    return sql.sql("INSERT INTO {cdc_published} (ids) VALUES (?)");
  }

  String publishedBatches() {
    return sql.sql("SELECT batch, ids FROM {cdc_published} ORDER BY batch LIMIT ?");
  }

  String forgetBatch() {
    return sql.sql("DELETE FROM {cdc_published} WHERE batch = ?");
  }
}
