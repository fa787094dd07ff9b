package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.SqlIdentifier;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

/** Builds an {@link IdempotencyStore}; every setting is validated when set. Not thread-safe. */
public final class IdempotencyStoreBuilder {
  private static final int MAX_KEY = 255;

  DataSource dataSource;
  String tableName = "outbox_idempotency";
  Duration processingTimeout = Duration.ofMinutes(1);
  Duration waitTimeout = Duration.ofSeconds(5);
  int purgeBatchSize = 1000;

  IdempotencyStoreBuilder() {}

  /** The database of the keys, the same as the work's. Required. */
  public IdempotencyStoreBuilder dataSource(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    return this;
  }

  /**
   * The table. Default {@code outbox_idempotency}; at most 49 characters (its index adds {@code
   * _completed_idx}).
   *
   * @throws OutboxConfigException if not an identifier
   */
  public IdempotencyStoreBuilder tableName(String tableName) {
    SqlIdentifier.require("tableName", tableName);
    if (tableName.length() > 49) {
      throw new OutboxConfigException("tableName", tableName, "must be at most 49 characters");
    }
    this.tableName = tableName;
    return this;
  }

  /**
   * How long a PROCESSING claim is honoured before another caller may take it over; longer than the
   * slowest work. Default 1 min.
   *
   * @throws OutboxConfigException unless 1 ms – 1 day
   */
  public IdempotencyStoreBuilder processingTimeout(Duration timeout) {
    DedupBuilder.requirePositive("processingTimeout", timeout);
    if (timeout.toMillis() < 1 || timeout.compareTo(Duration.ofDays(1)) > 0) {
      throw new OutboxConfigException(
          "processingTimeout", timeout, "must be between PT0.001S and P1D");
    }
    this.processingTimeout = timeout;
    return this;
  }

  /**
   * How long a concurrent duplicate waits for the first caller's response before {@link
   * IdempotencyInProgressException}. Default 5 s; zero answers at once.
   *
   * @throws OutboxConfigException unless 0 – 10 min
   */
  public IdempotencyStoreBuilder waitTimeout(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new OutboxConfigException("waitTimeout", timeout, "must be between PT0S and PT10M");
    }
    this.waitTimeout = timeout;
    return this;
  }

  /**
   * Most rows one purge transaction deletes. Default 1000.
   *
   * @throws OutboxConfigException unless 1–100000
   */
  public IdempotencyStoreBuilder purgeBatchSize(int size) {
    if (size < 1 || size > DedupStoreBuilder.MAX_PURGE_BATCH) {
      throw new OutboxConfigException("purgeBatchSize", size, "must be between 1 and 100000");
    }
    this.purgeBatchSize = size;
    return this;
  }

  /**
   * @throws OutboxConfigException if the data source is missing
   */
  public IdempotencyStore build() {
    if (dataSource == null) {
      throw new OutboxConfigException("dataSource", null, "is required");
    }
    return new IdempotencyStore(this);
  }

  static void requireKey(String key) {
    if (key == null || key.isBlank() || key.length() > MAX_KEY) {
      throw new IllegalArgumentException("idempotency key must be 1 to 255 characters, not blank");
    }
  }
}
