package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The outbox table's DDL. The same scripts are resources with Flyway-compatible names under {@code
 * db/outbox/<postgresql|mysql>/} with the placeholders {@code outbox_table} and {@code
 * outbox_bucket_index}; {@link #createIfMissing} runs them directly for applications without a
 * migration tool.
 */
public final class OutboxSchema {
  /** Migrations in order, per dialect folder. */
  static final List<String> MIGRATIONS =
      List.of("V1__create_outbox.sql", "V2__polling_relay_state.sql", "V3__discarded.sql");

  private OutboxSchema() {}

  /** The classpath location of a dialect's migrations, e.g. for Flyway's {@code locations}. */
  public static String location(SqlDialect dialect) {
    return "classpath:db/outbox/" + dialect.ddlFolder();
  }

  /**
   * Creates the table and its index when absent; safe to call repeatedly. Runs on the given
   * connection and leaves its transaction state to the caller (DDL auto-commits on MySQL).
   *
   * @throws OutboxConfigException if the table has custom column names (create it yourself)
   */
  public static void createIfMissing(Connection connection, OutboxTable table) {
    if (!table.hasDefaultColumns()) {
      throw new OutboxConfigException(
          "table.columns", table, "must use the default column names for createIfMissing");
    }
    SqlDialect dialect = SqlDialect.of(connection);
    try (Statement st = connection.createStatement()) {
      for (String migration : MIGRATIONS) {
        for (String sql : render(dialect, table, migration)) {
          st.execute(sql);
        }
      }
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not create outbox table " + table, e);
    }
  }

  /** The statements of one migration, placeholders replaced. */
  static List<String> render(SqlDialect dialect, OutboxTable table, String migration) {
    String sql = read(dialect.ddlFolder() + "/" + migration);
    for (Map.Entry<String, String> p : placeholders(dialect, table).entrySet()) {
      sql = sql.replace("${" + p.getKey() + "}", p.getValue());
    }
    return SqlScript.statements(sql);
  }

  /** The Flyway placeholders of the migrations for this table. */
  public static Map<String, String> placeholders(SqlDialect dialect, OutboxTable table) {
    // The trigger's name goes unquoted into CREATE TRIGGER and as text into pg_trigger's lookup, so
    // it is in lower case; it ends in _notify, so it is never a keyword. The channel is text too.
    String lower = table.notifyChannel();
    return Map.of(
        "outbox_table", table.qualifiedName(dialect),
        "outbox_bucket_index", dialect.quote(table.companionName("bucket_seq")),
        "outbox_lease_table", table.qualifiedCompanion(dialect, "lease"),
        "outbox_parked_table", table.qualifiedCompanion(dialect, "parked"),
        "outbox_discarded_table", table.qualifiedCompanion(dialect, "discarded"),
        "outbox_relay_table", table.qualifiedCompanion(dialect, "relay"),
        "outbox_notify_function", table.qualifiedCompanion(dialect, "notify"),
        "outbox_notify_trigger", OutboxTable.builder().name(lower).build().companionName("notify"),
        "outbox_channel", table.notifyChannel());
  }

  private static String read(String path) {
    try (InputStream in = OutboxSchema.class.getResourceAsStream("/db/outbox/" + path)) {
      if (in == null) {
        throw new IllegalStateException("Missing resource db/outbox/" + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
