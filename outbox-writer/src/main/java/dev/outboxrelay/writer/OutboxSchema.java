package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlScript;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
   * PostgreSQL's wake-up NOTIFY at commit from a deferred trigger, once per transaction and about
   * once per 20 ms, instead of V2's per statement (a notifying commit holds a database-wide lock
   * through its WAL flush); dropped by {@link #WAKE_UP_FROM_WRITER_MIGRATION}.
   */
  static final String NOTIFY_AT_COMMIT_MIGRATION = "V6__notify_at_commit.sql";

  /**
   * PostgreSQL: V6's trigger dropped; the writer notifies ({@link OutboxBuilder#wakeUpInterval}),
   * so transactions that do not notify no longer pay for the trigger.
   */
  static final String WAKE_UP_FROM_WRITER_MIGRATION = "V8__wake_up_from_the_writer.sql";

  /** The writer's key-lock table; only MySQL/MariaDB need one (PostgreSQL has advisory locks). */
  static final String KEY_LOCK_MIGRATION = "V4__writer_key_lock.sql";

  /**
   * MySQL/MariaDB: the table's primary key becomes {@code seq} (InnoDB stores rows in its order),
   * {@code id} a unique key; for a table whose primary key is {@code id}, else nothing. In a folder
   * of its own ({@link #SEQ_KEY_LOCATION}), so that Flyway applies it only when asked: relays of
   * versions before it name rows by {@code FORCE INDEX (PRIMARY)} on {@code id}, which on a table
   * keyed by {@code seq} is a locking full scan per row.
   */
  static final String SEQ_KEY_MIGRATION = "V7__cluster_by_seq.sql";

  /** The classpath location of {@link #SEQ_KEY_MIGRATION}, for Flyway's {@code locations}. */
  public static final String SEQ_KEY_LOCATION = "classpath:db/outbox/mysql-seq-key";

  /** MySQL's {@code ER_TABLEACCESS_DENIED_ERROR}: a command the user may not run on a table. */
  private static final int ER_TABLEACCESS_DENIED = 1142;

  private static final Logger log = LoggerFactory.getLogger(OutboxSchema.class);

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
      boolean created = dialect != SqlDialect.POSTGRESQL && !exists(connection, table);
      for (String migration : migrations(dialect)) {
        if (dialect == SqlDialect.POSTGRESQL) {
          createPostgres(connection, table, migration);
        } else {
          SqlScript.execute(connection, script(dialect, table, migration));
        }
      }
      if (created) {
        clusterNewTable(connection, table);
      }
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not create outbox table " + table, e);
    }
  }

  /**
   * One PostgreSQL migration, without the wake-up trigger that V2 and V6 create and V8 drops: run
   * on every call, creating it again only to drop it would lock the table exclusively (even {@code
   * DROP TRIGGER IF EXISTS} does) at every application or relay start, and two starting at once
   * could drop each other's objects mid-way. So V2 runs without its trigger function and trigger,
   * V6 not at all, and V8 only over what an earlier schema left (Flyway runs each script once, in
   * order, as shipped).
   */
  private static void createPostgres(Connection connection, OutboxTable table, String migration)
      throws SQLException {
    if (migration.equals(NOTIFY_AT_COMMIT_MIGRATION)) {
      return;
    }
    if (migration.equals(WAKE_UP_FROM_WRITER_MIGRATION) && !hasWakeUpTrigger(connection, table)) {
      return;
    }
    String function = table.qualifiedCompanion(SqlDialect.POSTGRESQL, "notify") + "()";
    try (Statement st = connection.createStatement()) {
      for (String sql : render(SqlDialect.POSTGRESQL, table, migration)) {
        if (!migration.equals(WAKE_UP_FROM_WRITER_MIGRATION) && sql.contains(function)) {
          continue; // V2's trigger function, and its trigger (EXECUTE FUNCTION ...)
        }
        st.execute(sql);
      }
    }
  }

  /** Whether V2's or V6's wake-up trigger, or V6's clock sequence, is still there. */
  private static boolean hasWakeUpTrigger(Connection connection, OutboxTable table)
      throws SQLException {
    Map<String, String> names = placeholders(SqlDialect.POSTGRESQL, table);
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = ?"
                + " AND tgrelid = to_regclass(?)) OR to_regclass(?) IS NOT NULL")) {
      ps.setString(1, names.get("outbox_notify_trigger"));
      ps.setString(2, names.get("outbox_table"));
      ps.setString(3, names.get("outbox_notify_clock"));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  /**
   * MySQL/MariaDB: makes {@code seq} the table's primary key and {@code id} a unique key ({@link
   * #SEQ_KEY_MIGRATION}), if its primary key is {@code id}; otherwise does nothing. {@link
   * #createIfMissing} does this to the tables it creates. For a table that exists: stop every relay
   * of the table first (a relay reads the key at start; one older than this writer would then scan
   * the table for each row it marks), and expect the table to be rebuilt (InnoDB allows concurrent
   * writes meanwhile).
   *
   * @throws OutboxConfigException on PostgreSQL, whose tables are not stored in a key's order
   */
  public static void clusterBySeq(Connection connection, OutboxTable table) {
    SqlDialect dialect = SqlDialect.of(connection);
    if (dialect == SqlDialect.POSTGRESQL) {
      throw new OutboxConfigException(
          "dialect", dialect, "must be MySQL or MariaDB to cluster the outbox table by seq");
    }
    try {
      SqlScript.execute(connection, seqKeyScript(table));
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not cluster outbox table " + table + " by seq", e);
    }
  }

  /**
   * V7 on a table just created. A user who may create tables but not alter them (MySQL error 1142,
   * {@code ALTER command denied}) keeps the table keyed by {@code id}, which the relays read and
   * use as well, with a WARN saying so; any other failure is the caller's.
   */
  private static void clusterNewTable(Connection connection, OutboxTable table)
      throws SQLException {
    try {
      SqlScript.execute(connection, seqKeyScript(table));
    } catch (SQLException e) {
      if (e.getErrorCode() != ER_TABLEACCESS_DENIED) {
        throw e;
      }
      log.warn(
          "Created outbox table {} keyed by id, not by seq: the user may not alter it ({}). The"
              + " relays work with either key; keyed by seq (V7__cluster_by_seq.sql, run by a user"
              + " with ALTER and the relays stopped) they mark rows faster",
          table,
          e.getMessage());
    }
  }

  private static boolean exists(Connection connection, OutboxTable table) throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT 1 FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?")) {
      ps.setString(1, table.schema().orElse(null));
      ps.setString(2, table.name());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static String seqKeyScript(OutboxTable table) {
    return SqlScript.load(
        OutboxSchema.class,
        "/db/outbox/mysql-seq-key/" + SEQ_KEY_MIGRATION,
        placeholders(SqlDialect.MYSQL, table));
  }

  /** The migrations of a dialect's folder, in order. */
  static List<String> migrations(SqlDialect dialect) {
    List<String> all = new java.util.ArrayList<>(MIGRATIONS);
    if (dialect == SqlDialect.POSTGRESQL) {
      all.add(NOTIFY_AT_COMMIT_MIGRATION);
      all.add(WAKE_UP_FROM_WRITER_MIGRATION);
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
        // The table as information_schema names it: string literals (validated identifiers, so
        // nothing in them needs escaping), the connection's database when no schema is set.
        Map.entry(
            "outbox_table_schema", table.schema().map(s -> "'" + s + "'").orElse("DATABASE()")),
        Map.entry("outbox_table_name", "'" + table.name() + "'"),
        Map.entry("outbox_id_index", dialect.quote(table.companionName("id"))),
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
