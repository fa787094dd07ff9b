package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * How many rows of a replay's selection (one id, one key, or created since an instant) are pending:
 * an upper bound of the replayed rows not yet published again. Rows of the selection that were
 * pending before the replay or written since count too, so progress counted from it lags and never
 * runs ahead; other keys' backlog does not count. OutboxAdmin has no such count.
 */
final class ReplayedPending {
  private final DataSource pool;
  private final OutboxTable table;
  private final UUID id;
  private final String key;
  private final Instant since;

  /** Exactly one of {@code id}, {@code key}, {@code since} is non-null (the replay's target). */
  ReplayedPending(DataSource pool, OutboxTable table, UUID id, String key, Instant since) {
    this.pool = pool;
    this.table = table;
    this.id = id;
    this.key = key;
    this.since = since;
  }

  long count() {
    try (Connection c = pool.getConnection()) {
      SqlDialect d = SqlDialect.of(c);
      OutboxColumn column =
          id != null
              ? OutboxColumn.ID
              : key != null ? OutboxColumn.AGGREGATE_ID : OutboxColumn.CREATED_AT;
      String sql =
          "SELECT COUNT(*) FROM "
              + table.qualifiedName(d)
              + " WHERE "
              + d.quote("published_at")
              + " IS NULL AND "
              + table.quoted(d, column)
              + (since != null ? " >= ?" : " = ?");
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        if (id != null) {
          ps.setObject(1, d.nativeUuid() ? id : id.toString());
        } else if (key != null) {
          ps.setString(1, key);
        } else {
          ps.setTimestamp(1, Timestamp.from(since));
        }
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      }
    } catch (SQLException e) {
      throw new OutboxException("counting the replayed rows still pending failed", e);
    }
  }
}
