package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlFunction;
import dev.outboxrelay.core.SqlScript;
import dev.outboxrelay.dedup.internal.Backoff;
import dev.outboxrelay.dedup.internal.IdempotencySql;
import dev.outboxrelay.dedup.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Idempotency keys for requests: the first caller of a key claims it (PROCESSING), runs the work
 * and stores the response (DONE) in the work's transaction; a repeated request gets the cached
 * response; a concurrent one waits up to {@code waitTimeout} or gets {@link
 * IdempotencyInProgressException}. A claim older than {@code processingTimeout} (database clock) is
 * taken over with a conditional update that exactly one caller wins; the old owner's transaction
 * then finds its claim gone and rolls back. DDL: {@code db/idempotency/<postgresql|mysql>/}.
 * Immutable and thread-safe.
 */
public final class IdempotencyStore {
  private static final Logger LOG = LoggerFactory.getLogger(IdempotencyStore.class);
  private static final byte[] EMPTY = new byte[0];

  private final DataSource dataSource;
  private final String tableName;
  private final long timeoutMicros;
  private final Duration waitTimeout;
  private final Backoff poll = new Backoff(Duration.ofMillis(10), Duration.ofMillis(200));
  private final int purgeBatchSize;
  private volatile IdempotencySql sql;

  IdempotencyStore(IdempotencyStoreBuilder b) {
    this.dataSource = b.dataSource;
    this.tableName = b.tableName;
    this.timeoutMicros = b.processingTimeout.toNanos() / 1000;
    this.waitTimeout = b.waitTimeout;
    this.purgeBatchSize = b.purgeBatchSize;
  }

  /** A builder; {@link IdempotencyStoreBuilder#dataSource} is required. */
  public static IdempotencyStoreBuilder builder() {
    return new IdempotencyStoreBuilder();
  }

  /**
   * Runs {@code work} once per key and returns its response; repeats get the cached response.
   *
   * @throws IllegalArgumentException if the key is blank or over 255 characters
   * @throws IdempotencyInProgressException if another caller holds the claim after the wait
   * @throws DedupHandlerException if the work threw (rolled back; the key is released)
   * @throws OutboxDatabaseException if the database failed
   * @throws OutboxException if interrupted while waiting (the interrupt flag is restored)
   */
  public IdempotentResponse execute(String key, IdempotentWork work) {
    IdempotencyStoreBuilder.requireKey(key);
    String owner = UUID.randomUUID().toString();
    long deadline = System.nanoTime() + waitTimeout.toNanos();
    for (int attempt = 1; ; attempt++) {
      // Read first: MVCC reads never wait, while an INSERT of an existing key would wait (InnoDB)
      // for the owner's row lock until its work commits.
      IdempotencySql.Row row = call(c -> sql(c).read(c, key, timeoutMicros));
      if (row == null && call(c -> sql(c).claim(c, key, owner))) {
        return new IdempotentResponse(runClaimed(key, owner, work), false);
      }
      if (row != null && row.done()) {
        return new IdempotentResponse(row.response() == null ? EMPTY : row.response(), true);
      }
      if (row != null && row.expired() && takeOver(key, row.owner(), owner)) {
        return new IdempotentResponse(runClaimed(key, owner, work), false);
      }
      if (row != null && System.nanoTime() - deadline >= 0) {
        throw new IdempotencyInProgressException(key, "claimed by another caller");
      }
      poll.sleep(attempt);
    }
  }

  private boolean takeOver(String key, String oldOwner, String owner) {
    boolean won = call(c -> sql(c).takeOver(c, key, oldOwner, owner, timeoutMicros));
    if (won) {
      LOG.warn("{} - Took over expired claim of key {} from {}", tableName, key, oldOwner);
    }
    return won;
  }

  private byte[] runClaimed(String key, String owner, IdempotentWork work) {
    try {
      return Transactions.run(
          dataSource,
          3,
          poll,
          (a, e) -> {},
          c -> {
            if (!sql(c).lockOwned(c, key, owner)) {
              throw new IdempotencyInProgressException(
                  key, "this caller's claim expired and was taken over");
            }
            byte[] response;
            try {
              response = work.execute(c);
            } catch (Exception e) {
              throw new DedupHandlerException(key, e);
            }
            response = response == null ? EMPTY : response;
            sql(c).complete(c, key, owner, response);
            return response;
          });
    } catch (DedupHandlerException | OutboxDatabaseException e) {
      call(
          c -> {
            sql(c).release(c, key, owner);
            return null;
          });
      throw e;
    }
  }

  /** Creates the table when absent; safe to call repeatedly. */
  public void createIfMissing() {
    call(
        c -> {
          SqlDialect d = SqlDialect.of(c);
          String script = "/db/idempotency/" + d.ddlFolder() + "/V1__create_idempotency.sql";
          SqlScript.execute(c, SqlScript.load(IdempotencyStore.class, script, placeholders(d)));
          return null;
        });
  }

  /** The Flyway placeholders of {@code db/idempotency/<postgresql|mysql>/}. */
  public Map<String, String> placeholders(SqlDialect dialect) {
    return Map.of(
        "idempotency_table", dialect.quote(tableName),
        "idempotency_completed_index", dialect.quote(tableName + "_completed_idx"));
  }

  /** Deletes DONE keys completed longer than {@code horizon} ago, in batches; returns how many. */
  public long purge(Duration horizon) {
    long micros = DedupStoreBuilder.requireHorizon(horizon);
    long total = 0;
    int deleted;
    do {
      deleted = call(c -> sql(c).purgeBatch(c, micros, purgeBatchSize));
      total += deleted;
    } while (deleted == purgeBatchSize && !Thread.currentThread().isInterrupted());
    return total;
  }

  private IdempotencySql sql(Connection c) {
    IdempotencySql s = sql;
    if (s == null) {
      s = new IdempotencySql(SqlDialect.of(c), tableName);
      sql = s;
    }
    return s;
  }

  private <T> T call(SqlFunction<Connection, T> f) {
    try (Connection c = dataSource.getConnection()) {
      T result = f.apply(c);
      if (!c.getAutoCommit()) {
        c.commit();
      }
      return result;
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Idempotency store " + tableName + " failed", e);
    }
  }
}
