package dev.outboxrelay.relay.cdc.internal.debezium;

import dev.outboxrelay.core.SqlDialect;
import io.debezium.storage.jdbc.history.JdbcSchemaHistory;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * The statements Debezium's JDBC stores run as the relay's source user, one of each kind, as probes
 * that write nothing once rolled back.
 *
 * <p>Invariant: a store the relay set up (its class, and none of its settings given in the user's
 * {@code debeziumProperties}) has a probe for every kind of statement it runs, on every table it
 * writes: the offset store on the offsets table and on the published log, and on MySQL/MariaDB the
 * schema history. A store the user replaced or reconfigured has none.
 *
 * <p>Debezium behaviour it answers: the stores connect with {@code jdbc.connection.user}, which the
 * relay sets to the source user, and a store whose statements are refused does not fail the engine:
 * {@code JdbcOffsetBackingStore} reports the failed save and the engine offers the position again,
 * a warning per attempt, so a relay could publish every row and never store a position. The columns
 * below are those of the tables Debezium's stores create ({@code JdbcOffsetBackingStoreConfig},
 * {@code JdbcSchemaHistoryConfig}).
 */
public final class StoreStatements {
  private static final String PLACEHOLDER = "outbox-relay start-up check, rolled back";

  /**
   * The stores' tables, quoted, and the relay's statement that logs one published batch ({@code
   * logPublished}, its ids as the one parameter).
   */
  public record Tables(String offsets, String published, String logPublished, String history) {}

  /**
   * One statement of a store on {@code table}, which holds {@code what}, and the privileges on it
   * that the stores need.
   */
  public record Probe(
      String table, String what, String privileges, String statement, List<Object> parameters) {
    Probe(String table, String what, String privileges, String statement, Object... parameters) {
      this(table, what, privileges, statement, List.of(parameters));
    }

    /** The same probe, naming these privileges. */
    public Probe withPrivileges(String named) {
      return new Probe(table, what, named, statement, parameters);
    }
  }

  private StoreStatements() {}

  /**
   * The probes for the stores of an engine with these settings ({@code engine}, as {@link
   * EngineProperties} made them) and the user's own ({@code user}); none for replaced stores.
   */
  public static List<Probe> probes(
      Tables t, SqlDialect dialect, Properties engine, Properties user) {
    List<Probe> probes = new ArrayList<>();
    if (ours(engine, user, "offset.storage", MaskedJdbcOffsetBackingStore.class)) {
      String o = t.offsets();
      String what = "the stream's position";
      String privileges = "SELECT, INSERT, DELETE";
      probes.add(new Probe(o, what, privileges, "SELECT 1 FROM " + o + " WHERE 1=0"));
      probes.add(new Probe(o, what, privileges, "DELETE FROM " + o + " WHERE 1=0"));
      String insert =
          "INSERT INTO " + o + " (id, offset_key, offset_val, record_insert_ts, record_insert_seq)";
      probes.add(
          new Probe(
              o,
              what,
              privileges,
              insert + " VALUES (?, ?, ?, CURRENT_TIMESTAMP, 0)",
              UUID.randomUUID().toString(),
              PLACEHOLDER,
              PLACEHOLDER));
      String logged = "the published log with each position";
      probes.add(
          new Probe(t.published(), logged, "INSERT", t.logPublished(), (Object) new byte[0]));
    }
    if (dialect != SqlDialect.POSTGRESQL
        && ours(engine, user, "schema.history.internal", JdbcSchemaHistory.class)) {
      String h = t.history();
      String what = "the schema history";
      String privileges = "SELECT, INSERT";
      probes.add(new Probe(h, what, privileges, "SELECT 1 FROM " + h + " WHERE 1=0"));
      String insert =
          "INSERT INTO "
              + h
              + " (id, history_data, history_data_seq, record_insert_ts,"
              + " record_insert_seq) VALUES (?, ?, 0, CURRENT_TIMESTAMP, 0)";
      String id = UUID.randomUUID().toString();
      probes.add(new Probe(h, what, privileges, insert, id, PLACEHOLDER));
    }
    return probes;
  }

  /**
   * The store is the relay's, as the relay set it up: its class, and none of its settings (URL,
   * user, table, statements) given by the user.
   */
  private static boolean ours(Properties engine, Properties user, String store, Class<?> ours) {
    return ours.getName().equals(engine.getProperty(store))
        && user.stringPropertyNames().stream().noneMatch(k -> k.startsWith(store));
  }
}
