package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxColumn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * MySQL/MariaDB: the relay's shared-lock reads, each naming one row by a unique key, so that none
 * can be planned as a scan that waits for an unrelated writer's uncommitted insert (see {@link
 * CdcSql#lockEach}). Marks and purges lock rows the same way, one primary-key lookup per row, in
 * one statement each ({@link CdcSql#markByIds}).
 */
final class PointStatements {
  /** Rows per point-read statement (a UNION ALL of that many SELECTs). */
  static final int PER_STATEMENT = 100;

  private final CdcSql sql;
  private final ConnectionSource connections;

  /** The store's connections: auto-commit, READ COMMITTED. */
  interface ConnectionSource {
    Connection get() throws SQLException;
  }

  PointStatements(CdcSql sql, ConnectionSource connections) {
    this.sql = sql;
    this.connections = connections;
  }

  /**
   * A shared-lock read of each row by this unique key, waiting for the commit of a row whose
   * transaction is still committing and for no other transaction; returns the keys (as strings) of
   * the rows still pending.
   */
  List<String> lockEach(OutboxColumn key, List<?> values) throws SQLException {
    List<String> found = new ArrayList<>();
    try (Connection c = connections.get()) {
      for (int from = 0; from < values.size(); from += PER_STATEMENT) {
        List<?> chunk = values.subList(from, Math.min(values.size(), from + PER_STATEMENT));
        try (PreparedStatement ps = c.prepareStatement(sql.lockEach(key, chunk.size()))) {
          for (int i = 0; i < chunk.size(); i++) {
            ps.setObject(i + 1, chunk.get(i));
          }
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              found.add(rs.getString(1));
            }
          }
        }
      }
    }
    return found;
  }
}
