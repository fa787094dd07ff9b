package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.cdc.internal.CreatedAtConverter;
import dev.outboxrelay.relay.cdc.internal.MaskedJdbcOffsetBackingStore;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The embedded engine's settings: the connector for the database, offsets and schema history in the
 * database itself (JDBC stores, not files that can tear), no data snapshot (rows written before the
 * first start are caught up from the table), a short poll interval. User settings override.
 */
final class DebeziumConfig {
  static final String CREATED_AT_CONVERTER = "outboxcreatedat";

  private DebeziumConfig() {}

  static Properties of(CdcRelayConfig c, CdcSql sql) {
    SourceDatabase db = c.source();
    Properties p = new Properties();
    p.setProperty("name", c.name());
    p.setProperty("topic.prefix", c.slotName());
    p.setProperty("database.hostname", db.host());
    p.setProperty("database.port", String.valueOf(db.port()));
    p.setProperty("database.user", c.user());
    p.setProperty("database.password", c.password());
    p.setProperty("snapshot.mode", "no_data");
    p.setProperty("poll.interval.ms", String.valueOf(c.pollInterval().toMillis()));
    // One engine batch is what can be published but not yet marked when the process dies: the
    // relay's batch size (by default 2048, as Debezium's), never the user's max.batch.size. The
    // queue must be larger than a batch; it keeps Debezium's default read-ahead of 8192 events
    // unless the batch asks for more.
    p.setProperty("max.batch.size", String.valueOf(c.batchSize()));
    p.setProperty("max.queue.size", String.valueOf(Math.max(8192, 4 * c.batchSize())));
    p.setProperty("offset.flush.interval.ms", "0");
    // The relay publishes INSERTs only: Debezium drops the rest before converting them (the
    // deletes of published rows are as many events as the messages; truncates are Debezium's
    // default skip).
    p.setProperty("skipped.operations", "u,d,t");
    // Debezium's context headers (connector name, task, run id) on every record: the relay builds
    // its messages' headers from the row and never reads them, and the binlog reader spent an
    // allocation of four headers and a UUID string on each record.
    p.setProperty("extended.headers.enabled", "false");
    // Heartbeats bring the first batch soon after start (the table catch-up runs then) and keep a
    // PostgreSQL slot's confirmed position moving while the outbox is idle.
    p.setProperty("heartbeat.interval.ms", "1000");
    p.setProperty("offset.storage", MaskedJdbcOffsetBackingStore.class.getName());
    jdbc(p, "offset.storage.", c);
    p.setProperty("offset.storage.jdbc.offset.table.name", unquoted(c, "cdc_offsets"));
    String schema =
        c.table().schema().orElse(db.dialect() == SqlDialect.POSTGRESQL ? "public" : db.database());
    String table = schema + "." + c.table().name();
    p.setProperty("table.include.list", table);
    // The creation time as epoch microseconds, not as Debezium's ISO-8601 string: see
    // CreatedAtConverter. A user's own converters setting replaces this one.
    p.setProperty("converters", CREATED_AT_CONVERTER);
    p.setProperty(CREATED_AT_CONVERTER + ".type", CreatedAtConverter.class.getName());
    p.setProperty(CREATED_AT_CONVERTER + ".table", table);
    p.setProperty(CREATED_AT_CONVERTER + ".column", c.table().column(OutboxColumn.CREATED_AT));
    // Always null in an INSERT, never read from the stream: one conversion and check less per row.
    // Not beside a user's column.include.list, which Debezium refuses with an exclude list.
    if (!c.debezium().containsKey("column.include.list")) {
      p.setProperty("column.exclude.list", Pattern.quote(table + ".published_at"));
    }
    if (db.dialect() == SqlDialect.POSTGRESQL) {
      postgres(p, c, db);
    } else {
      binlog(p, c, db);
    }
    p.putAll(c.debezium());
    return p;
  }

  private static void postgres(Properties p, CdcRelayConfig c, SourceDatabase db) {
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    p.setProperty("database.dbname", db.database());
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", c.slotName());
    p.setProperty("publication.name", c.slotName());
    p.setProperty("publication.autocreate.mode", "filtered");
  }

  private static void binlog(Properties p, CdcRelayConfig c, SourceDatabase db) {
    p.setProperty(
        "connector.class",
        db.dialect() == SqlDialect.MARIADB
            ? "io.debezium.connector.mariadb.MariaDbConnector"
            : "io.debezium.connector.mysql.MySqlConnector");
    p.setProperty("database.include.list", db.database());
    p.setProperty(
        "database.server.id", String.valueOf(5400 + Math.floorMod(c.name().hashCode(), 1 << 30)));
    p.setProperty("snapshot.locking.mode", "none");
    // The server sends a heartbeat event every 0.8 × this while the binlog is idle, and only those
    // bring Debezium's heartbeats there: with its default of 60 s a relay restarted on an idle
    // binlog got its first batch (its fence, "streaming") 48 s after start. Now within 2 s.
    p.setProperty("connect.keep.alive.interval.ms", "2500");
    p.setProperty("include.schema.changes", "false");
    p.setProperty("schema.history.internal", "io.debezium.storage.jdbc.history.JdbcSchemaHistory");
    p.setProperty("schema.history.internal.store.only.captured.tables.ddl", "true");
    jdbc(p, "schema.history.internal.", c);
    p.setProperty(
        "schema.history.internal.jdbc.schema.history.table.name", unquoted(c, "cdc_history"));
    // Debezium's default VARCHAR(65000) exceeds MySQL's row size in utf8mb4.
    p.setProperty(
        "schema.history.internal.jdbc.schema.history.table.ddl",
        "CREATE TABLE %s (id VARCHAR(36) NOT NULL, history_data MEDIUMTEXT, history_data_seq INTEGER,"
            + " record_insert_ts TIMESTAMP NOT NULL, record_insert_seq INTEGER NOT NULL,"
            + " PRIMARY KEY (id, history_data_seq))");
  }

  /** Without a password, through {@link PasswordlessDriver}: Debezium's stores insist on one. */
  private static void jdbc(Properties p, String prefix, CdcRelayConfig c) {
    boolean none = c.password().isEmpty();
    p.setProperty(
        prefix + "jdbc.connection.url", none ? PasswordlessDriver.wrap(c.jdbcUrl()) : c.jdbcUrl());
    p.setProperty(prefix + "jdbc.connection.user", c.user());
    p.setProperty(
        prefix + "jdbc.connection.password", none ? PasswordlessDriver.PLACEHOLDER : c.password());
  }

  private static String unquoted(CdcRelayConfig c, String suffix) {
    String name = c.table().companionName(suffix);
    return c.table().schema().map(s -> s + "." + name).orElse(name);
  }
}
