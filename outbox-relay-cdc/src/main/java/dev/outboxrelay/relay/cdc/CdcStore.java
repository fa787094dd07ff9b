package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.internal.PendingRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/** Runs {@link CdcSql} statements, each in its own auto-commit READ COMMITTED unit. */
final class CdcStore {
  private final DataSource dataSource;
  private final CdcSql sql;

  CdcStore(DataSource dataSource, CdcSql sql) {
    this.dataSource = dataSource;
    this.sql = sql;
  }

  Set<UUID> stillPending(List<UUID> ids) throws SQLException {
    Set<UUID> pending = new HashSet<>();
    if (ids.isEmpty()) {
      return pending;
    }
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.stillPending(ids.size()))) {
      bindIds(ps, 1, ids);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          pending.add(UUID.fromString(rs.getString(1)));
        }
      }
    }
    return pending;
  }

  /** The highest sequence in the table now (0 if empty). */
  long maxSeq() throws SQLException {
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.maxSeq());
        ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /**
   * Pending rows of one key (or of every unparked key when {@code key} is null) up to a sequence,
   * in order.
   */
  List<PendingRow> pendingRows(String key, List<String> excluded, long maxSeq, int limit)
      throws SQLException {
    List<PendingRow> rows = new ArrayList<>();
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.pendingRows(key != null, excluded.size()))) {
      int i = 1;
      if (key != null) {
        ps.setString(i++, key);
      }
      ps.setLong(i++, maxSeq);
      for (String k : excluded) {
        ps.setString(i++, k);
      }
      ps.setInt(i, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(PendingRow.read(rs));
        }
      }
    }
    return rows;
  }

  void markDone(List<UUID> ids) throws SQLException {
    if (ids.isEmpty()) {
      return;
    }
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.markDone(ids.size()))) {
      bindIds(ps, 1, ids);
      ps.executeUpdate();
    }
  }

  void park(PendingRow row, String reason) throws SQLException {
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.park())) {
      ps.setString(1, row.aggregateId());
      bindIds(ps, 2, List.of(row.id()));
      ps.setInt(3, row.bucket());
      ps.setString(4, reason.length() > 2000 ? reason.substring(0, 2000) : reason);
      ps.executeUpdate();
    }
  }

  Set<String> parkedKeys() throws SQLException {
    Set<String> keys = new HashSet<>();
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.parkedKeys());
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        keys.add(rs.getString(1));
      }
    }
    return keys;
  }

  int purge(Duration window, int limit) throws SQLException {
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.purge())) {
      ps.setLong(1, window.toMillis());
      ps.setInt(2, limit);
      return ps.executeUpdate();
    }
  }

  private void bindIds(PreparedStatement ps, int first, List<UUID> ids) throws SQLException {
    for (int i = 0; i < ids.size(); i++) {
      if (sql.dialect.nativeUuid()) {
        ps.setObject(first + i, ids.get(i));
      } else {
        ps.setString(first + i, ids.get(i).toString());
      }
    }
  }

  private Connection connection() throws SQLException {
    Connection c = dataSource.getConnection();
    c.setAutoCommit(true);
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    return c;
  }
}
