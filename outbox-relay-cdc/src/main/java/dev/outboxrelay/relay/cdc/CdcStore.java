package dev.outboxrelay.relay.cdc;

import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;

import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.core.rows.PublishedRows;
import dev.outboxrelay.core.rows.RowsByKey;
import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import dev.outboxrelay.relay.engine.StateSql;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.LongStream;
import javax.sql.DataSource;

/**
 * Runs {@link CdcSql} statements in READ COMMITTED, each in its own auto-commit unit except the
 * retention's (a logged batch's marks with the forgetting of its log row).
 */
final class CdcStore {
  private final DataSource dataSource;
  private final CdcSql sql;
  private final PointStatements points;
  private final MinimalRowImages minimalImages;

  /** How rows are named in statements, read from the table at first use. */
  private final RowsByKey.Once rowKeys;

  CdcStore(DataSource dataSource, CdcSql sql) {
    this.dataSource = dataSource;
    this.sql = sql;
    this.points = new PointStatements(sql, this::connection);
    this.rowKeys = new RowsByKey.Once(sql.table(), sql.dialect);
    this.minimalImages = new MinimalRowImages(sql.locksToWait());
  }

  /**
   * Which of these ids are still pending. MySQL/MariaDB: waits for the commit of a row whose
   * transaction is still committing (see {@link CdcSql#lockEach}), and for no other transaction.
   */
  Set<UUID> stillPending(List<UUID> ids) throws SQLException {
    Set<UUID> pending = new HashSet<>();
    if (ids.isEmpty()) {
      return pending;
    }
    if (sql.locksToWait()) {
      points.lockEach(ID, ids.stream().map(UUID::toString).toList()).stream()
          .map(UUID::fromString)
          .forEach(pending::add);
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

  /** PostgreSQL: the transaction ids among these that a new snapshot does not see yet. */
  Set<Long> invisibleTxids(Collection<Long> txids) throws SQLException {
    Set<Long> invisible = new HashSet<>();
    if (txids.isEmpty()) {
      return invisible;
    }
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.invisibleTxids())) {
      ps.setArray(1, c.createArrayOf("bigint", txids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          invisible.add(rs.getLong(1));
        }
      }
    }
    return invisible;
  }

  /**
   * Every pending row of an unparked key, read by one statement (one consistent view of the table):
   * their sequence numbers, ascending, and each key's first.
   */
  CatchUp.Pending pendingSeqs() throws SQLException {
    LongStream.Builder seqs = LongStream.builder();
    Map<String, Long> firstOfKey = new HashMap<>();
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.pendingSeqs());
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        long seq = rs.getLong(1);
        seqs.add(seq);
        firstOfKey.putIfAbsent(rs.getString(2), seq);
      }
    }
    return new CatchUp.Pending(seqs.build().toArray(), firstOfKey);
  }

  /**
   * The rows of these sequence numbers still pending, in the order given. MySQL/MariaDB: their
   * commits are waited for first, by point reads (see {@link CdcSql#lockEach}).
   */
  List<PendingRow> pendingBySeq(long[] seqs, int from, int to) throws SQLException {
    if (sql.locksToWait()) {
      points.lockEach(SEQUENCE, Arrays.stream(seqs, from, to).boxed().toList());
    }
    Map<Long, PendingRow> found = new HashMap<>();
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.pendingBySeq(to - from))) {
      for (int i = from; i < to; i++) {
        ps.setLong(i - from + 1, seqs[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.put(rs.getLong(8), PendingRow.read(rs));
        }
      }
    }
    List<PendingRow> rows = new ArrayList<>(found.size());
    for (int i = from; i < to; i++) {
      PendingRow row = found.get(seqs[i]);
      if (row != null) {
        rows.add(row);
      }
    }
    return rows;
  }

  /** Pending rows of one key, oldest first. */
  List<PendingRow> pendingOfKey(String key, int limit) throws SQLException {
    List<PendingRow> rows = new ArrayList<>();
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.pendingOfKey())) {
      ps.setString(1, key);
      ps.setInt(2, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(PendingRow.read(rs));
        }
      }
    }
    return rows;
  }

  /**
   * Writes a fence row for this relay and deletes it in the same transaction: the change stream
   * carries the INSERT after every transaction that committed before it, and the table never holds
   * it.
   */
  void writeFence(UUID id, String relay) throws SQLException {
    try (Connection c = connection()) {
      c.setAutoCommit(false);
      try (PreparedStatement insert = c.prepareStatement(sql.insertFence());
          PreparedStatement delete = c.prepareStatement(sql.deleteFence())) {
        bindIds(insert, 1, List.of(id));
        insert.setString(2, OutboxEvents.FENCE_TYPE);
        insert.setString(3, relay);
        insert.setString(4, OutboxEvents.FENCE_TYPE);
        insert.setBytes(5, new byte[0]);
        insert.executeUpdate();
        bindIds(delete, 1, List.of(id));
        delete.executeUpdate();
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      }
    }
  }

  /** Marks these rows done, one statement ({@link CdcSql#markDone}, {@link CdcSql#markByIds}). */
  void markDone(List<UUID> ids) throws SQLException {
    try (Connection c = connection()) {
      markDone(c, ids);
    }
  }

  /** On {@code c}: in a transaction already open there, the mark joins it. */
  private void markDone(Connection c, List<UUID> ids) throws SQLException {
    if (ids.isEmpty()) {
      return;
    }
    if (sql.locksToWait()) {
      try (PreparedStatement ps = c.prepareStatement(sql.markByIds(rowKeys.get(c)))) {
        ps.setString(1, RowsByKey.json(ids));
        ps.executeUpdate();
      }
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(sql.markDone())) {
      ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
      ps.executeUpdate();
    }
  }

  /** Creates the published log's table if it is absent. */
  void createLog() throws SQLException {
    try (Connection c = connection()) {
      MissingTables.create(c, java.util.Map.of(sql.published, sql.publishedLogTable()));
    }
  }

  /** The processor's published log: batches waiting for the next stored position. */
  PublishedLog newPublishedLog() {
    return new PublishedLog(sql.logPublished());
  }

  /** Writes the log's pending batches to the published log table in a transaction of their own. */
  void writeLog(PublishedLog log) throws SQLException {
    try (Connection c = connection()) {
      c.setAutoCommit(false);
      List<byte[]> taken = log.insertPending(c);
      try {
        c.commit();
      } catch (SQLException | RuntimeException e) {
        log.giveBack(taken);
        c.rollback();
        throw e;
      }
    }
  }

  /**
   * Marks done the rows of at most {@code batches} logged batches, oldest first, each batch with
   * its log row in one transaction; returns how many batches it retained. (One transaction for a
   * whole round of batches was tried: on MariaDB its commit writes megabytes of binlog at once and
   * a live writer's commits wait behind it; measured slower.)
   */
  int retain(int batches) throws SQLException {
    Map<Long, List<UUID>> logged = new java.util.LinkedHashMap<>();
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.publishedBatches())) {
      ps.setInt(1, batches);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ByteBuffer b = ByteBuffer.wrap(rs.getBytes(2));
          List<UUID> ids = new ArrayList<>(b.remaining() / 16);
          while (b.remaining() >= 16) {
            ids.add(new UUID(b.getLong(), b.getLong()));
          }
          logged.put(rs.getLong(1), ids);
        }
      }
    }
    if (logged.isEmpty()) {
      return 0;
    }
    try (Connection c = connection()) {
      boolean minimal = minimalImages.set(c);
      try {
        for (Map.Entry<Long, List<UUID>> batch : logged.entrySet()) {
          c.setAutoCommit(false);
          try (PreparedStatement forget = c.prepareStatement(sql.forgetBatch())) {
            forget.setLong(1, batch.getKey());
            forget.executeUpdate();
            markDone(c, batch.getValue());
            c.commit();
          } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
          } finally {
            c.setAutoCommit(true);
          }
        }
      } finally {
        if (minimal) {
          MinimalRowImages.reset(c);
        }
      }
    }
    return logged.size();
  }

  void park(PendingRow row, String reason) throws SQLException {
    try (Connection c = connection();
        PreparedStatement ps = c.prepareStatement(sql.park())) {
      ps.setString(1, row.aggregateId());
      bindIds(ps, 2, List.of(row.id()));
      ps.setInt(3, row.bucket());
      ps.setString(4, StateSql.reason(reason));
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

  /** Deletes at most {@code limit} rows published longer ago than the window; returns how many. */
  int purge(Duration window, int limit) throws SQLException {
    try (Connection c = connection()) {
      return PublishedRows.purge(c, rowKeys.get(c), window, limit);
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

  /** A pooled connection in auto-commit and READ COMMITTED, as every statement here runs. */
  Connection connection() throws SQLException {
    Connection c = dataSource.getConnection();
    c.setAutoCommit(true);
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    return c;
  }
}
