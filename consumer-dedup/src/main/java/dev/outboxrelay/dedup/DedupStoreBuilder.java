package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.SqlIdentifier;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

/** Builds a {@link DedupStore}; every setting is validated when set. Not thread-safe. */
public final class DedupStoreBuilder {
  static final String INDEX_SUFFIX = "_processed_idx";
  static final int MAX_PURGE_BATCH = 100_000;

  DataSource dataSource;
  String tableName = "outbox_dedup";
  String markTableName = "outbox_dedup_hwm";
  int purgeBatchSize = 1000;

  DedupStoreBuilder() {}

  /** The database of the dedup tables, the same as the handler's. Required. */
  public DedupStoreBuilder dataSource(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    return this;
  }

  /**
   * The dedup table. Default {@code outbox_dedup}. Its index is named {@code
   * <tableName>_processed_idx}, so at most 49 characters.
   *
   * @throws OutboxConfigException if not an identifier
   */
  public DedupStoreBuilder tableName(String tableName) {
    SqlIdentifier.require("tableName", tableName);
    if (tableName.length() > SqlIdentifier.MAX_LENGTH - INDEX_SUFFIX.length()) {
      throw new OutboxConfigException(
          "tableName", tableName, "must be at most 49 characters (its index adds _processed_idx)");
    }
    this.tableName = tableName;
    return this;
  }

  /**
   * The high-water-mark table. Default {@code outbox_dedup_hwm}.
   *
   * @throws OutboxConfigException if not an identifier
   */
  public DedupStoreBuilder highWaterMarkTableName(String name) {
    this.markTableName = SqlIdentifier.require("highWaterMarkTableName", name);
    return this;
  }

  /**
   * Most rows one purge transaction deletes. Default 1000.
   *
   * @throws OutboxConfigException unless 1–100000
   */
  public DedupStoreBuilder purgeBatchSize(int size) {
    if (size < 1 || size > MAX_PURGE_BATCH) {
      throw new OutboxConfigException("purgeBatchSize", size, "must be between 1 and 100000");
    }
    this.purgeBatchSize = size;
    return this;
  }

  /**
   * @throws OutboxConfigException if the data source is missing or both tables share a name
   */
  public DedupStore build() {
    if (dataSource == null) {
      throw new OutboxConfigException("dataSource", null, "is required");
    }
    if (tableName.equalsIgnoreCase(markTableName)) {
      throw new OutboxConfigException(
          "highWaterMarkTableName", markTableName, "must differ from tableName");
    }
    return new DedupStore(this);
  }

  static long requireHorizon(Duration horizon) {
    if (horizon == null
        || horizon.isNegative()
        || horizon.isZero()
        || horizon.compareTo(Duration.ofDays(36_500)) > 0) {
      throw new OutboxConfigException("horizon", horizon, "must be between 1 ns and 36500 days");
    }
    return horizon.toNanos() / 1000;
  }
}
