package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.rows.RowsByKey;
import dev.outboxrelay.daemon.StartupFailure.Kind;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.relay.engine.StateSql;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Checks at start-up, and before an operator command, that a relay's tables exist. A relay started
 * without them would only log the same WARN every backoff forever while its health said UP, and an
 * operator command would fail with a raw SQL error; failing at once, naming the table and the
 * option that creates it, is what an operator can act on. {@code <table>_discarded} (migration V3)
 * is checked too: a schema upgraded without it relays, but {@code parked list}, {@code discard},
 * {@code replay} and {@code verify} read it. On MySQL/MariaDB the outbox table's keys are read as
 * the relay will read them ({@link RowsByKey}): a table without a unique index on {@code id} alone
 * and one on {@code seq} alone is refused here, naming the indexes it has.
 */
final class SchemaCheck {
  private SchemaCheck() {}

  /** The outbox table and the companions this relay's mode reads and writes. */
  static List<String> suffixes(RelayConfig relay) {
    List<String> suffixes = new ArrayList<>(List.of(""));
    if (relay.mode() == RelayConfig.Mode.POLLING) {
      suffixes.addAll(StateSql.LEASE_TABLES);
    }
    suffixes.addAll(StateSql.SHARED_TABLES);
    return List.copyOf(suffixes);
  }

  /**
   * @throws StartupFailure {@link Kind#SCHEMA_MISSING} naming the missing tables
   */
  static void require(DataSource pool, RelayConfig relay, int index) {
    List<String> missing = new ArrayList<>();
    String lastError = null;
    String keys = null;
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      SqlDialect dialect = SqlDialect.of(c);
      for (String suffix : suffixes(relay)) {
        String table =
            suffix.isEmpty()
                ? relay.table().qualifiedName(dialect)
                : relay.table().qualifiedCompanion(dialect, suffix);
        try {
          st.executeQuery("SELECT 1 FROM " + table + " WHERE 1 = 0").close();
        } catch (SQLException e) {
          missing.add(
              suffix.isEmpty() ? relay.table().name() : relay.table().companionName(suffix));
          lastError = e.getMessage();
        }
      }
      if (missing.isEmpty()) {
        try {
          RowsByKey.read(c, relay.table(), dialect); // what the relay reads when it first marks
        } catch (OutboxConfigException e) {
          keys = e.getMessage();
        }
      }
    } catch (SQLException e) {
      throw new StartupFailure(
          Kind.UNAVAILABLE,
          "relays["
              + index
              + "] ("
              + relay.name()
              + "): cannot check the tables: "
              + Secrets.maskText(e.getMessage()));
    }
    if (keys != null) {
      throw new StartupFailure(
          Kind.SCHEMA_MISSING, "relays[" + index + "] (" + relay.name() + "): " + keys);
    }
    if (!missing.isEmpty()) {
      throw new StartupFailure(
          Kind.SCHEMA_MISSING,
          "relays["
              + index
              + "] ("
              + relay.name()
              + "): table(s) "
              + String.join(", ", missing)
              + " missing in "
              + Secrets.maskUrl(relay.database().url())
              + " ("
              + Secrets.maskText(lastError)
              + "); create them with the outbox-writer migrations (OutboxSchema) or set relays["
              + index
              + "].create-schema: true (run creates them at start-up)");
    }
  }
}
