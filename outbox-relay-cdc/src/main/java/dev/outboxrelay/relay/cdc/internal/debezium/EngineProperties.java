package dev.outboxrelay.relay.cdc.internal.debezium;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The embedded engine's settings for one relay.
 *
 * <p>Invariant: unless the user's {@code debeziumProperties} (applied last) say otherwise, the
 * engine stores its position and schema history in the source database (Debezium's JDBC stores,
 * never a file that can tear), takes no data snapshot (rows written before the first start are
 * caught up from the table), hands over at most the relay's {@code batchSize} records per batch,
 * and stores the position after every batch.
 *
 * <p>Debezium behaviour it answers: the embedded engine's defaults suit a Kafka Connect worker, not
 * an outbox relay: offsets in a file flushed every 60 s ({@code offset.flush.interval.ms}), an
 * initial snapshot of the table, the schema history in a file, ISO-8601 strings for timestamps with
 * a time zone.
 */
public final class EngineProperties {
  private static final String CREATED_AT_CONVERTER = "outboxcreatedat";

  /**
   * Debezium's deprecated names of JDBC store settings (still read, with a WARN each) and their
   * names now. The relay writes the new names; a user's override under an old name is moved to the
   * new one, where it still wins over the relay's value (Debezium reads the new name first).
   */
  public static final Map<String, String> RENAMED =
      Map.of(
          "offset.storage.jdbc.offset.table.name", "offset.storage.jdbc.table.name",
          "offset.storage.jdbc.offset.table.ddl", "offset.storage.jdbc.table.ddl",
          "offset.storage.jdbc.offset.table.select", "offset.storage.jdbc.table.select",
          "offset.storage.jdbc.offset.table.delete", "offset.storage.jdbc.table.delete",
          "offset.storage.jdbc.offset.table.insert", "offset.storage.jdbc.table.insert",
          "schema.history.internal.jdbc.schema.history.table.name",
              "schema.history.internal.jdbc.table.name",
          "schema.history.internal.jdbc.schema.history.table.ddl",
              "schema.history.internal.jdbc.table.ddl",
          "schema.history.internal.jdbc.schema.history.table.select",
              "schema.history.internal.jdbc.table.select",
          "schema.history.internal.jdbc.schema.history.table.exists",
              "schema.history.internal.jdbc.table.exists",
          "schema.history.internal.jdbc.schema.history.table.insert",
              "schema.history.internal.jdbc.table.insert");

  /** What the engine's settings are made from: the relay's validated settings. */
  public record Inputs(
      String name,
      String slotName,
      String jdbcUrl,
      String user,
      String password,
      SourceDatabase source,
      OutboxTable table,
      Duration pollInterval,
      int batchSize,
      Properties overrides) {}

  private EngineProperties() {}

  /** The engine's settings: the relay's, then {@code r.overrides()} over them. */
  public static Properties of(Inputs r) {
    SourceDatabase db = r.source();
    Properties p = new Properties();
    p.setProperty("name", r.name());
    p.setProperty("topic.prefix", r.slotName());
    p.setProperty("database.hostname", db.host());
    p.setProperty("database.port", String.valueOf(db.port()));
    p.setProperty("database.user", r.user());
    p.setProperty("database.password", r.password());
    p.setProperty("snapshot.mode", "no_data");
    p.setProperty("poll.interval.ms", String.valueOf(r.pollInterval().toMillis()));
    // One engine batch is what can be published but not yet marked when the process dies: the
    // relay's batch size (by default 2048, as Debezium's), never the user's max.batch.size. The
    // queue must be larger than a batch; it keeps Debezium's default read-ahead of 8192 events
    // unless the batch asks for more.
    p.setProperty("max.batch.size", String.valueOf(r.batchSize()));
    p.setProperty("max.queue.size", String.valueOf(Math.max(8192, 4 * r.batchSize())));
    p.setProperty("offset.flush.interval.ms", "0");
    // The relay publishes INSERTs only: Debezium drops the rest before converting them (the
    // deletes of published rows are as many events as the messages; truncates are Debezium's
    // default skip).
    p.setProperty("skipped.operations", "u,d,t");
    // Debezium's context headers (connector name, task, run id) on every record: the relay builds
    // its messages' headers from the row and never reads them, and the binlog reader spends an
    // allocation of four headers and a UUID string on each record.
    p.setProperty("extended.headers.enabled", "false");
    // Heartbeats bring the first batch soon after start (the table catch-up runs then), keep a
    // PostgreSQL slot's confirmed position moving while the outbox is idle, and let EngineSilence
    // tell a stuck reader from an idle one.
    p.setProperty("heartbeat.interval.ms", "1000");
    p.setProperty("offset.storage", MaskedJdbcOffsetBackingStore.class.getName());
    storeLogin(p, "offset.storage.", r);
    p.setProperty("offset.storage.jdbc.table.name", unquoted(r, "cdc_offsets"));
    String schema =
        r.table().schema().orElse(db.dialect() == SqlDialect.POSTGRESQL ? "public" : db.database());
    String table = schema + "." + r.table().name();
    p.setProperty("table.include.list", table);
    // The creation time as epoch microseconds, not as Debezium's ISO-8601 string: see
    // CreatedAtConverter. A user's own converters setting replaces this one.
    p.setProperty("converters", CREATED_AT_CONVERTER);
    p.setProperty(CREATED_AT_CONVERTER + ".type", CreatedAtConverter.class.getName());
    p.setProperty(CREATED_AT_CONVERTER + ".table", table);
    p.setProperty(CREATED_AT_CONVERTER + ".column", r.table().column(OutboxColumn.CREATED_AT));
    // Always null in an INSERT, never read from the stream: one conversion and check less per row.
    // Not beside a user's column.include.list, which Debezium refuses with an exclude list.
    if (!r.overrides().containsKey("column.include.list")) {
      p.setProperty("column.exclude.list", Pattern.quote(table + ".published_at"));
    }
    if (db.dialect() == SqlDialect.POSTGRESQL) {
      postgres(p, r, db);
    } else {
      binlog(p, r, db);
    }
    p.putAll(r.overrides());
    RENAMED.forEach(
        (old, now) -> {
          String v = p.getProperty(old);
          p.remove(old);
          if (v != null && !r.overrides().containsKey(now)) {
            p.setProperty(now, v);
          }
        });
    return p;
  }

  private static void postgres(Properties p, Inputs r, SourceDatabase db) {
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    p.setProperty("database.dbname", db.database());
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", r.slotName());
    p.setProperty("publication.name", r.slotName());
    p.setProperty("publication.autocreate.mode", "filtered");
  }

  private static void binlog(Properties p, Inputs r, SourceDatabase db) {
    p.setProperty(
        "connector.class",
        db.dialect() == SqlDialect.MARIADB
            ? "io.debezium.connector.mariadb.MariaDbConnector"
            : "io.debezium.connector.mysql.MySqlConnector");
    p.setProperty("database.include.list", db.database());
    p.setProperty(
        "database.server.id", String.valueOf(5400 + Math.floorMod(r.name().hashCode(), 1 << 30)));
    p.setProperty("snapshot.locking.mode", "none");
    // The server sends a heartbeat event every 0.8 × this while the binlog is idle, and only those
    // bring Debezium's heartbeats there: with Debezium's default of 60 s a relay started on an idle
    // binlog would wait up to 48 s for its first batch (its fence, "streaming"); 2.5 s bounds that
    // at 2 s.
    p.setProperty("connect.keep.alive.interval.ms", "2500");
    p.setProperty("include.schema.changes", "false");
    p.setProperty("schema.history.internal", "io.debezium.storage.jdbc.history.JdbcSchemaHistory");
    p.setProperty("schema.history.internal.store.only.captured.tables.ddl", "true");
    storeLogin(p, "schema.history.internal.", r);
    p.setProperty("schema.history.internal.jdbc.table.name", unquoted(r, "cdc_history"));
    // Debezium's default VARCHAR(65000) exceeds MySQL's row size in utf8mb4.
    p.setProperty(
        "schema.history.internal.jdbc.table.ddl",
        "CREATE TABLE %s (id VARCHAR(36) NOT NULL, history_data MEDIUMTEXT, history_data_seq INTEGER,"
            + " record_insert_ts TIMESTAMP NOT NULL, record_insert_seq INTEGER NOT NULL,"
            + " PRIMARY KEY (id, history_data_seq))");
  }

  private static void storeLogin(Properties p, String prefix, Inputs r) {
    PasswordlessDriver.storeLogin(p, prefix, r.jdbcUrl(), r.user(), r.password());
  }

  private static String unquoted(Inputs r, String suffix) {
    String name = r.table().companionName(suffix);
    return r.table().schema().map(s -> s + "." + name).orElse(name);
  }
}
