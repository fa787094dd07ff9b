package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlFunction;
import dev.outboxrelay.core.SqlScript;
import dev.outboxrelay.dedup.internal.BatchSql;
import dev.outboxrelay.dedup.internal.DedupSql;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * The dedup tables on one database: processed message ids per consumer group, and per-key
 * high-water marks. DDL ships as Flyway-compatible resources under {@code
 * db/dedup/<postgresql|mysql>/} with the placeholders of {@link #placeholders}; {@link
 * #createIfMissing} runs it directly. Immutable and thread-safe.
 */
public final class DedupStore {
  private final DataSource dataSource;
  private final String tableName;
  private final String markTableName;
  private final int purgeBatchSize;
  private volatile DedupSql sql;
  private volatile BatchSql batchSql;

  DedupStore(DedupStoreBuilder b) {
    this.dataSource = b.dataSource;
    this.tableName = b.tableName;
    this.markTableName = b.markTableName;
    this.purgeBatchSize = b.purgeBatchSize;
  }

  /** A builder; {@link DedupStoreBuilder#dataSource} is required. */
  public static DedupStoreBuilder builder() {
    return new DedupStoreBuilder();
  }

  /** The classpath location of a database's migrations, e.g. for Flyway's {@code locations}. */
  public static String location(SqlDialect dialect) {
    return "classpath:db/dedup/" + dialect.ddlFolder();
  }

  /** The Flyway placeholders of the migrations for this store. */
  public Map<String, String> placeholders(SqlDialect dialect) {
    return Map.of(
        "dedup_table", dialect.quote(tableName),
        "dedup_processed_index", dialect.quote(tableName + DedupStoreBuilder.INDEX_SUFFIX),
        "dedup_hwm_table", dialect.quote(markTableName));
  }

  /** Creates the tables and index when absent; safe to call repeatedly and concurrently. */
  public void createIfMissing() {
    try (Connection c = dataSource.getConnection()) {
      SqlDialect d = SqlDialect.of(c);
      String script = "/db/dedup/" + d.ddlFolder() + "/V1__create_dedup.sql";
      SqlScript.execute(c, SqlScript.load(DedupStore.class, script, placeholders(d)));
      if (!c.getAutoCommit()) {
        c.commit();
      }
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not create dedup table " + tableName, e);
    }
  }

  /**
   * Deletes one batch of at most {@code purgeBatchSize} dedup records processed longer than {@code
   * horizon} ago (database clock), in its own short transaction.
   *
   * @return how many were deleted; less than the batch size means none are left
   */
  public int purgeBatch(Duration horizon) {
    long micros = DedupStoreBuilder.requireHorizon(horizon);
    return withConnection(c -> sql(c).purgeBatch(c, micros, purgeBatchSize));
  }

  /**
   * Purges all dedup records older than {@code horizon} in batches of {@code purgeBatchSize}, each
   * its own transaction, so locks stay short. High-water marks are never purged.
   *
   * @return the total deleted
   */
  public long purge(Duration horizon) {
    long total = 0;
    int deleted;
    do {
      deleted = purgeBatch(horizon);
      total += deleted;
    } while (deleted == purgeBatchSize && !Thread.currentThread().isInterrupted());
    return total;
  }

  /** Whether the group's record of this message id exists (not yet purged). */
  public boolean isProcessed(String group, String messageId) {
    return withConnection(c -> sql(c).exists(c, group, messageId));
  }

  /** The group's high-water mark of a key, if it has one. */
  public OptionalLong highWaterMark(String group, String key) {
    return withConnection(c -> sql(c).mark(c, group, key));
  }

  DataSource dataSource() {
    return dataSource;
  }

  DedupSql sql(Connection c) {
    DedupSql s = sql;
    if (s == null) {
      s = new DedupSql(SqlDialect.of(c), tableName, markTableName);
      sql = s;
    }
    return s;
  }

  BatchSql batchSql(Connection c) {
    BatchSql s = batchSql;
    if (s == null) {
      s = new BatchSql(SqlDialect.of(c), tableName, markTableName, sql(c));
      batchSql = s;
    }
    return s;
  }

  private <T> T withConnection(SqlFunction<Connection, T> f) {
    try (Connection c = dataSource.getConnection()) {
      T result = f.apply(c);
      if (!c.getAutoCommit()) {
        c.commit();
      }
      return result;
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Dedup store " + tableName + " failed", e);
    }
  }

  @Override
  public String toString() {
    return "DedupStore[" + tableName + ", " + markTableName + "]";
  }
}
