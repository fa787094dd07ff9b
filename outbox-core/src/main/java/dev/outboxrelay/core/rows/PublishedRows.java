package dev.outboxrelay.core.rows;

import static dev.outboxrelay.core.Jdbc.params;
import static dev.outboxrelay.core.OutboxColumn.ID;

import dev.outboxrelay.core.Jdbc;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Retention of rows kept after publishing ({@code published_at} set): both relays purge them the
 * same way. Stateless.
 */
public final class PublishedRows {
  private PublishedRows() {}

  /**
   * Deletes at most {@code limit} rows published longer ago than {@code window}, on {@code c} as it
   * is (auto-commit, the caller's isolation); returns how many.
   *
   * <p>PostgreSQL: one statement. MySQL/MariaDB: no index leads with {@code published_at}, so a
   * {@code DELETE} by that condition would be a locking full scan, waiting for every uncommitted
   * insert it meets. The candidates are found by a plain (non-locking) read and deleted by their
   * key in one statement ({@link RowsByKey#purge}), the condition checked again: a row replayed in
   * between is pending again and stays.
   */
  public static int purge(Connection c, RowsByKey rows, Duration window, int limit)
      throws SQLException {
    OutboxTable table = rows.table();
    SqlDialect dialect = rows.dialect();
    String olderThanWindow = dialect.quote("published_at") + " < " + dialect.nowMinusMillis();
    String outbox = table.qualifiedName(dialect);
    long millis = window.toMillis();
    if (dialect == SqlDialect.POSTGRESQL) {
      String id = table.quoted(dialect, ID);
      String purge = dialect.deleteAtMost(outbox, id, olderThanWindow, "");
      return Jdbc.update(c, purge, params(millis, limit));
    }
    String key = table.quoted(dialect, rows.key());
    String candidates =
        "SELECT " + key + " FROM " + outbox + " WHERE " + olderThanWindow + " LIMIT ?";
    List<String> values = Jdbc.query(c, candidates, params(millis, limit), rs -> rs.getString(1));
    if (values.isEmpty()) {
      return 0;
    }
    String json =
        rows.key() == ID
            ? RowsByKey.json(values.stream().map(UUID::fromString).toList())
            : RowsByKey.jsonOfSequences(values.stream().map(Long::valueOf).toList());
    return Jdbc.update(c, rows.purge(), params(json, millis));
  }
}
