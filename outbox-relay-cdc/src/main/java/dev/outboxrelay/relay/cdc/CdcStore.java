package dev.outboxrelay.relay.cdc;

import static dev.outboxrelay.core.Jdbc.params;
import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;

import dev.outboxrelay.core.Jdbc;
import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import dev.outboxrelay.relay.engine.TableStore;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Runs {@link CdcSql} statements in READ COMMITTED, each in its own auto-commit unit except the
 * fence's and the retention's (a logged batch's marks with the forgetting of its log row).
 */
final class CdcStore {
  /** MySQL/MariaDB: rows per point-read statement (a UNION ALL of that many SELECTs). */
  static final int PER_STATEMENT = 100;

  private final CdcSql sql;
  private final TableStore table;
  private final MinimalRowImages minimalImages;

  CdcStore(DataSource dataSource, CdcSql sql) {
    this.sql = sql;
    this.table = new TableStore(dataSource, sql.state, sql.keepRows);
    this.minimalImages = new MinimalRowImages(sql.locksToWait());
  }

  /**
   * Which of these ids are still pending. MySQL/MariaDB: waits for the commit of a row whose
   * transaction is still committing (see {@link CdcSql#lockEach}), and for no other transaction.
   */
  Set<UUID> stillPending(List<UUID> ids) throws SQLException {
    if (ids.isEmpty()) {
      return new HashSet<>();
    }
    if (sql.locksToWait()) {
      List<String> found = lockEach(ID, ids.stream().map(UUID::toString).toList());
      return new HashSet<>(found.stream().map(UUID::fromString).toList());
    }
    Object[] values = ids.stream().map(sql.state::idValue).toArray();
    try (Connection c = connection()) {
      return new HashSet<>(
          Jdbc.query(
              c,
              sql.stillPending(ids.size()),
              params(values),
              rs -> UUID.fromString(rs.getString(1))));
    }
  }

  /**
   * MySQL/MariaDB: a shared-lock read of each row by this unique key, {@link #PER_STATEMENT} rows a
   * statement, waiting for the commit of a row whose transaction is still committing and for no
   * other transaction; returns the keys (as strings) of the rows still pending.
   */
  private List<String> lockEach(OutboxColumn key, List<?> values) throws SQLException {
    List<String> found = new ArrayList<>();
    try (Connection c = connection()) {
      for (int from = 0; from < values.size(); from += PER_STATEMENT) {
        List<?> chunk = values.subList(from, Math.min(values.size(), from + PER_STATEMENT));
        String statement = sql.lockEach(key, chunk.size());
        found.addAll(Jdbc.query(c, statement, params(chunk.toArray()), rs -> rs.getString(1)));
      }
    }
    return found;
  }

  /** PostgreSQL: the transaction ids among these that a new snapshot does not see yet. */
  Set<Long> invisibleTxids(Collection<Long> txids) throws SQLException {
    if (txids.isEmpty()) {
      return new HashSet<>();
    }
    try (Connection c = connection()) {
      Object array = c.createArrayOf("bigint", txids.toArray());
      return new HashSet<>(Jdbc.query(c, sql.invisibleTxids(), params(array), rs -> rs.getLong(1)));
    }
  }

  /**
   * Every pending row of an unparked key, read by one statement (one consistent view of the table):
   * their sequence numbers, ascending, and each key's first.
   */
  CatchUp.Pending pendingSeqs() throws SQLException {
    Map<String, Long> firstOfKey = new HashMap<>();
    List<Long> seqs;
    try (Connection c = connection()) {
      seqs =
          Jdbc.query(
              c,
              sql.pendingSeqs(),
              params(),
              rs -> {
                long seq = rs.getLong(1);
                firstOfKey.putIfAbsent(rs.getString(2), seq);
                return seq;
              });
    }
    return new CatchUp.Pending(seqs.stream().mapToLong(Long::longValue).toArray(), firstOfKey);
  }

  /**
   * The rows of these sequence numbers still pending, in the order given. MySQL/MariaDB: their
   * commits are waited for first, by point reads (see {@link CdcSql#lockEach}).
   */
  List<PendingRow> pendingBySeq(long[] seqs, int from, int to) throws SQLException {
    List<Long> wanted = Arrays.stream(seqs, from, to).boxed().toList();
    if (sql.locksToWait()) {
      lockEach(SEQUENCE, wanted);
    }
    Map<Long, PendingRow> found = new HashMap<>();
    try (Connection c = connection()) {
      String statement = sql.pendingBySeq(wanted.size());
      for (PendingRow row : Jdbc.query(c, statement, params(wanted.toArray()), PendingRow::read)) {
        found.put(row.sequence(), row);
      }
    }
    return wanted.stream().map(found::get).filter(Objects::nonNull).toList();
  }

  /** Pending rows of one key, oldest first. */
  List<PendingRow> pendingOfKey(String key, int limit) throws SQLException {
    try (Connection c = connection()) {
      return Jdbc.query(c, sql.pendingOfKey(), params(key, limit), PendingRow::read);
    }
  }

  /**
   * Writes a fence row for this relay and deletes it in the same transaction: the change stream
   * carries the INSERT after every transaction that committed before it, and the table never holds
   * it.
   */
  void writeFence(UUID id, String relay) throws SQLException {
    Object idValue = sql.state.idValue(id);
    String type = OutboxEvents.FENCE_TYPE;
    try (Connection c = connection()) {
      Jdbc.inTransaction(
          c,
          tx -> {
            Jdbc.update(tx, sql.insertFence(), params(idValue, type, relay, type, new byte[0]));
            return Jdbc.update(tx, sql.deleteFence(), params(idValue));
          });
    }
  }

  /** Marks these rows done, one statement ({@link TableStore#markDone}). */
  void markDone(List<UUID> ids) throws SQLException {
    try (Connection c = connection()) {
      table.markDone(c, ids);
    }
  }

  /** Creates the published log's table if it is absent. */
  void createLog() throws SQLException {
    try (Connection c = connection()) {
      MissingTables.create(c, sql.dialect, Map.of(sql.published, sql.publishedLogTable()));
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
    Map<Long, List<UUID>> logged = new LinkedHashMap<>();
    try (Connection c = connection()) {
      Jdbc.query(
              c, sql.publishedBatches(), params(batches), rs -> Map.entry(rs.getLong(1), ids(rs)))
          .forEach(e -> logged.put(e.getKey(), e.getValue()));
    }
    if (logged.isEmpty()) {
      return 0;
    }
    try (Connection c = connection()) {
      boolean minimal = minimalImages.set(c);
      try {
        for (Map.Entry<Long, List<UUID>> batch : logged.entrySet()) {
          Jdbc.inTransaction(
              c,
              tx -> {
                Jdbc.update(tx, sql.forgetBatch(), params(batch.getKey()));
                table.markDone(tx, batch.getValue());
                return null;
              });
        }
      } finally {
        if (minimal) {
          MinimalRowImages.reset(c);
        }
      }
    }
    return logged.size();
  }

  /** A logged batch's ids, 16 bytes each. */
  private static List<UUID> ids(ResultSet rs) throws SQLException {
    ByteBuffer b = ByteBuffer.wrap(rs.getBytes(2));
    List<UUID> ids = new ArrayList<>(b.remaining() / 16);
    while (b.remaining() >= 16) {
      ids.add(new UUID(b.getLong(), b.getLong()));
    }
    return ids;
  }

  void park(PendingRow row, String reason) throws SQLException {
    table.park(sql.state.park(), row, reason);
  }

  Set<String> parkedKeys() throws SQLException {
    return table.parkedKeys();
  }

  /** Deletes at most {@code limit} rows published longer ago than the window; returns how many. */
  int purge(Duration window, int limit) throws SQLException {
    return table.purge(window, limit);
  }

  /** A pooled connection in auto-commit and READ COMMITTED, as every statement here runs. */
  Connection connection() throws SQLException {
    return table.connection();
  }
}
