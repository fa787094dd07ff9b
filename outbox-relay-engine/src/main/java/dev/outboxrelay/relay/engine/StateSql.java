package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlTemplate;
import dev.outboxrelay.core.rows.OutboxRows;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

/**
 * The relay-state tables of one outbox table and dialect, and the statements on them that both
 * relays and {@link OutboxAdmin} run: one declaration, so the polling relay, the CDC relay and the
 * operator read and write the same rows the same way. Every name is a validated, quoted identifier.
 *
 * <ul>
 *   <li>{@code <table>_parked}: one row per stopped key ({@code aggregateid} primary key, {@code
 *       message_id}, {@code bucket}, {@code reason} at most {@value #MAX_REASON_LENGTH} characters,
 *       {@code parked_at} on the database clock). Written by both relays, read by both (a parked
 *       key's rows are skipped), deleted by the operator.
 *   <li>{@code <table>_discarded}: messages an operator dropped ({@code message_id} primary key).
 *   <li>{@code <table>_dead_letter}: one row per parked key whose message was copied to the
 *       dead-letter topic ({@code aggregateid} primary key, {@code message_id}, {@code parked_at}
 *       of the parking it was for, {@code topic}, {@code sent_at}). A row counts only while it
 *       matches the key's parked row (same message and {@code parked_at}): a key unparked and
 *       parked again is copied again.
 *   <li>{@code <table>_lease} and {@code <table>_relay}: the polling relay's key-bucket leases and
 *       heartbeats; the CDC relay has none, {@link OutboxAdmin#leaseOwners} reads them.
 * </ul>
 *
 * <p>The DDL of these tables is part of the table contract installed with the outbox table: the
 * writer's {@code OutboxSchema.createIfMissing} or its Flyway migrations {@code
 * db/outbox/<dialect>/V2__polling_relay_state.sql}, {@code V3__discarded.sql} and {@code
 * V5__dead_letter.sql} (kept under those names: a renamed or edited migration fails Flyway's
 * validation of existing schemas). Immutable, thread-safe.
 */
public final class StateSql {
  /** Longest reason stored for a parked key; longer reasons are cut ({@link #reason}). */
  public static final int MAX_REASON_LENGTH = 2000;

  /** Companion tables every relay needs: parked keys, discards and dead-letter copies. */
  public static final List<String> SHARED_TABLES = List.of("parked", "discarded", "dead_letter");

  /** Companion tables only the polling relay needs: leases and heartbeats. */
  public static final List<String> LEASE_TABLES = List.of("lease", "relay");

  private static final String NOT_PARKED =
      "NOT EXISTS (SELECT 1 FROM {parked} p WHERE p.aggregateid = %s.{aggregate_id})";

  private final OutboxTable table;
  private final SqlDialect dialect;
  private final SqlTemplate sql;

  private StateSql(OutboxTable table, SqlDialect dialect) {
    this.table = table;
    this.dialect = dialect;
    this.sql =
        SqlTemplate.of(table, dialect)
            .withCompanions("parked", "discarded", "dead_letter", "lease", "relay")
            .with("row_columns", OutboxRows.selectList(table, dialect) + ", o.{bucket}")
            .with("not_parked", NOT_PARKED.formatted("o"));
  }

  /** The state tables of {@code table} in {@code dialect}. */
  public static StateSql of(OutboxTable table, SqlDialect dialect) {
    return new StateSql(table, dialect);
  }

  /**
   * The names of the outbox table ({@link SqlTemplate#of}) and of its state tables ({@code
   * {parked}}, {@code {discarded}}, {@code {dead_letter}}, {@code {lease}}, {@code {relay}}), and
   * two fragments for a pending row aliased {@code o}: {@code {row_columns}}, the columns {@link
   * dev.outboxrelay.core.rows.PendingRow#read} expects, and {@code {not_parked}}, true when its key
   * is not parked.
   */
  public SqlTemplate template() {
    return sql;
  }

  /** The statement {@code template} with this table's names ({@link #template}). */
  public String sql(String template) {
    return sql.sql(template);
  }

  /** The outbox table these statements are for. */
  public OutboxTable table() {
    return table;
  }

  /** The dialect the statements are written in. */
  public SqlDialect dialect() {
    return dialect;
  }

  /** The outbox table's qualified, quoted name. */
  public String outbox() {
    return sql("{outbox}");
  }

  /** {@code <table>_parked}, qualified and quoted. */
  public String parked() {
    return sql("{parked}");
  }

  /** {@code <table>_discarded}, qualified and quoted. */
  public String discarded() {
    return sql("{discarded}");
  }

  /** {@code <table>_dead_letter}, qualified and quoted. */
  public String deadLetter() {
    return sql("{dead_letter}");
  }

  /** {@code <table>_lease} (the polling relay's key-bucket leases), qualified and quoted. */
  public String lease() {
    return sql("{lease}");
  }

  /** {@code <table>_relay} (the polling relays' heartbeats), qualified and quoted. */
  public String relay() {
    return sql("{relay}");
  }

  /** An outbox column's quoted name. */
  public String col(OutboxColumn c) {
    return table.quoted(dialect, c);
  }

  /** The quoted {@code published_at} column (set when rows are kept, {@link Retention}). */
  public String published() {
    return sql("{published_at}");
  }

  /**
   * A condition on the parked row aliased {@code p}: its message was copied to the dead-letter
   * topic for this parking.
   */
  String deadLettered(boolean copied) {
    return (copied ? "EXISTS" : "NOT EXISTS")
        + sql(
            " (SELECT 1 FROM {dead_letter} d WHERE d.aggregateid = p.aggregateid"
                + " AND d.message_id = p.message_id AND d.parked_at = p.parked_at)");
  }

  /**
   * Parked keys whose message is not copied yet, oldest parking first (then by key), with the
   * message's row: {@code OutboxRows.selectList} columns, the bucket, then the parked reason and
   * {@code parked_at}. Parameters: {@code buckets} bucket numbers (none: every bucket); when {@code
   * after}, the parking to start after ({@code parked_at} twice, then {@code aggregateid}); then
   * the limit.
   */
  String deadLetterDue(int buckets, boolean after) {
    String columns = OutboxRows.selectList(table, dialect).replaceAll("(^|, )", "$1o.");
    return "SELECT "
        + columns
        + sql(", o.{bucket}, p.reason, p.parked_at FROM {parked} p JOIN {outbox} o")
        + sql(" ON o.{id} = p.message_id WHERE ")
        + deadLettered(false)
        + (buckets == 0 ? "" : " AND p.bucket IN (" + SqlTemplate.marks(buckets) + ")")
        + (after ? " AND (p.parked_at > ? OR (p.parked_at = ? AND p.aggregateid > ?))" : "")
        + " ORDER BY p.parked_at, p.aggregateid LIMIT ?";
  }

  /** Forgets an earlier copy of the key (parameter 1): a copy for a former parking. */
  String forgetDeadLetter() {
    return sql("DELETE FROM {dead_letter} WHERE aggregateid = ?");
  }

  /**
   * Records the copy of a parked message, only while the key is still parked at it by the same
   * parking (unparked and parked again at the same message while the copy was in flight: the new
   * parking gets its own copy). Parameters: topic, aggregateid, message id ({@link #setId}), the
   * {@code parked_at} read with the due message.
   */
  String recordDeadLetter() {
    return sql(
        "INSERT INTO {dead_letter} (aggregateid, message_id, parked_at, topic)"
            + " SELECT aggregateid, message_id, parked_at, ? FROM {parked}"
            + " WHERE aggregateid = ? AND message_id = ? AND parked_at = ?");
  }

  /**
   * Parks a key unless it is parked already (the first reason stays). Parameters: aggregateid,
   * message id ({@link #setId}), bucket, reason ({@link #reason}).
   */
  public String park() {
    return dialect.insertIgnore(
        parked(), "(aggregateid, message_id, bucket, reason) VALUES (?, ?, ?, ?)");
  }

  /**
   * As {@link #park}, only while {@code owner} holds the bucket's unexpired lease (database clock):
   * a relay that lost its lease parks nothing. Parameters: as {@link #park}, then bucket, owner.
   */
  public String parkWhileLeased() {
    return dialect.insertIgnore(
        parked(),
        sql(
            "(aggregateid, message_id, bucket, reason) SELECT ?, ?, ?, ? FROM {lease} l"
                + " WHERE l.bucket = ? AND l.owner = ? AND l.expires_at > {now}"));
  }

  /** One row if the key (parameter 1) is parked. */
  public String isParked() {
    return sql("SELECT 1 FROM {parked} WHERE aggregateid = ?");
  }

  /** Every parked key. */
  public String parkedKeys() {
    return sql("SELECT aggregateid FROM {parked}");
  }

  /** A condition true when the row aliased {@code alias} belongs to no parked key. */
  public String notParked(String alias) {
    return sql(NOT_PARKED.formatted(alias));
  }

  /** A condition excluding discarded messages, to append to a WHERE clause. */
  public String andNotDiscarded() {
    return sql(" AND {id} NOT IN (SELECT message_id FROM {discarded})");
  }

  /**
   * Marks the outbox rows that {@code where} (a WHERE clause with its leading space) selects done:
   * sets {@code published_at} when rows are kept ({@code keepRows}), deletes them otherwise.
   */
  public String mark(boolean keepRows, String where) {
    return (keepRows
            ? sql("UPDATE {outbox} SET {published_at} = {now}")
            : sql("DELETE FROM {outbox}"))
        + where;
  }

  /**
   * PostgreSQL: marks the rows whose ids are in one {@code uuid[]} parameter done, one statement (a
   * primary-key lookup per id, whatever the number of ids; no statement text per batch size).
   */
  public String markByIdArray(boolean keepRows) {
    return mark(keepRows, sql(" WHERE {id} = ANY(?)"));
  }

  /** The reason as stored: at most {@value #MAX_REASON_LENGTH} characters. */
  public static String reason(String reason) {
    return reason.length() > MAX_REASON_LENGTH ? reason.substring(0, MAX_REASON_LENGTH) : reason;
  }

  /** The value binding a message id: a UUID where the column is one, its text otherwise. */
  public Object idValue(UUID id) {
    return dialect.nativeUuid() ? id : id.toString();
  }

  /** Binds a message id ({@link #idValue}). */
  public void setId(PreparedStatement ps, int index, UUID id) throws SQLException {
    dev.outboxrelay.core.Jdbc.set(ps, index, idValue(id));
  }
}
