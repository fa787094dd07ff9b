package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlScript;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The outbox table's DDL. The same scripts are resources with Flyway-compatible names under {@code
 * db/outbox/<postgresql|mysql>/} with the placeholders of {@link #placeholders}; {@link
 * #createIfMissing} runs them directly for applications without a migration tool. On MySQL and
 * MariaDB they include the writer's key-lock table {@code <table>_key_lock} ({@code
 * V4__writer_key_lock.sql}), needed by a writer with {@link OutboxBuilder#keyOrder(boolean)} on.
 */
public final class OutboxSchema {
  /** Migrations in order, common to every dialect folder. */
  static final List<String> MIGRATIONS =
      List.of(
          "V1__create_outbox.sql",
          "V2__polling_relay_state.sql",
          "V3__discarded.sql",
          "V5__dead_letter.sql");

  /**
   * PostgreSQL's wake-up NOTIFY at commit, once per transaction and about once per 20 ms, instead
   * of V2's per statement (a notifying commit holds a database-wide lock through its WAL flush).
   */
  static final String NOTIFY_AT_COMMIT_MIGRATION = "V6__notify_at_commit.sql";

  /** The writer's key-lock table; only MySQL/MariaDB need one (PostgreSQL has advisory locks). */
  static final String KEY_LOCK_MIGRATION = "V4__writer_key_lock.sql";

  private OutboxSchema() {}

  /** The classpath location of a dialect's migrations, e.g. for Flyway's {@code locations}. */
  public static String location(SqlDialect dialect) {
    return "classpath:db/outbox/" + dialect.ddlFolder();
  }

  /**
   * Creates the table, its index, the relay-state tables and (MySQL/MariaDB) the key-lock table
   * when absent; safe to call repeatedly. Runs on the given connection and leaves its transaction
   * state to the caller (DDL auto-commits on MySQL).
   *
   * @throws OutboxConfigException if the table has custom column names (create it yourself)
   */
  public static void createIfMissing(Connection connection, OutboxTable table) {
    if (!table.hasDefaultColumns()) {
      throw new OutboxConfigException(
          "table.columns", table, "must use the default column names for createIfMissing");
    }
    SqlDialect dialect = SqlDialect.of(connection);
    try {
      for (String migration : migrations(dialect)) {
        SqlScript.execute(connection, script(dialect, table, migration));
      }
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not create outbox table " + table, e);
    }
  }

  /** The migrations of a dialect's folder, in order. */
  static List<String> migrations(SqlDialect dialect) {
    List<String> all = new java.util.ArrayList<>(MIGRATIONS);
    if (dialect == SqlDialect.POSTGRESQL) {
      all.add(NOTIFY_AT_COMMIT_MIGRATION);
      return all;
    }
    all.add(MIGRATIONS.size() - 1, KEY_LOCK_MIGRATION);
    return all;
  }

  /** The statements of one migration, placeholders replaced. */
  static List<String> render(SqlDialect dialect, OutboxTable table, String migration) {
    return SqlScript.statements(script(dialect, table, migration));
  }

  private static String script(SqlDialect dialect, OutboxTable table, String migration) {
    return SqlScript.load(
        OutboxSchema.class,
        "/db/outbox/" + dialect.ddlFolder() + "/" + migration,
        placeholders(dialect, table));
  }

  /** The Flyway placeholders of the migrations for this table. */
  public static Map<String, String> placeholders(SqlDialect dialect, OutboxTable table) {
    // The trigger's name goes unquoted into CREATE TRIGGER and as text into pg_trigger's lookup, so
    // it is in lower case; it ends in _notify, so it is never a keyword. The channel is text too.
    String lower = table.notifyChannel();
    return Map.ofEntries(
        Map.entry("outbox_table", table.qualifiedName(dialect)),
        Map.entry("outbox_bucket_index", dialect.quote(table.companionName("bucket_seq"))),
        Map.entry("outbox_lease_table", table.qualifiedCompanion(dialect, "lease")),
        Map.entry("outbox_parked_table", table.qualifiedCompanion(dialect, "parked")),
        Map.entry("outbox_discarded_table", table.qualifiedCompanion(dialect, "discarded")),
        Map.entry("outbox_dead_letter_table", table.qualifiedCompanion(dialect, "dead_letter")),
        Map.entry("outbox_relay_table", table.qualifiedCompanion(dialect, "relay")),
        Map.entry("outbox_key_lock_table", table.qualifiedCompanion(dialect, "key_lock")),
        Map.entry("outbox_notify_function", table.qualifiedCompanion(dialect, "notify")),
        Map.entry(
            "outbox_notify_trigger",
            OutboxTable.builder().name(lower).build().companionName("notify")),
        Map.entry("outbox_notify_once", table.qualifiedCompanion(dialect, "notify_once")),
        Map.entry("outbox_notify_clock", table.qualifiedCompanion(dialect, "notify_clock")),
        // A custom setting, transaction-local: "notify queued" for this table's trigger.
        Map.entry("outbox_notify_setting", "outbox_relay." + lower + "_notify"),
        Map.entry("outbox_channel", table.notifyChannel()));
  }
}
