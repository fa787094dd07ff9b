package dev.outboxrelay.relay.cdc.internal;

import dev.outboxrelay.core.Secrets;
import io.debezium.config.Configuration;
import io.debezium.storage.jdbc.RetriableConnection;
import io.debezium.storage.jdbc.offset.JdbcOffsetBackingStore;
import io.debezium.storage.jdbc.offset.JdbcOffsetBackingStoreConfig;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.WorkerConfig;

/**
 * Debezium's JDBC offset store, with the relay's published log in the position's transaction, and
 * without secrets in its failures.
 *
 * <p>Each save writes the batches the relay logged since the last one ({@link PublishedLog}, found
 * by the engine's {@link PublishedLog#TOKEN_PROPERTY}) and the positions in one transaction: a
 * stored position never runs ahead of the log, and an acknowledged batch costs the stream one
 * commit. The positions are written as Debezium's own store writes them (its table, its statements:
 * every row deleted and inserted again), so its loading reads them as before.
 *
 * <p>When its configuration fails, Debezium 3.5's store throws "Failed to connect JDBC offset
 * backing store: " followed by every setting of the engine, {@code database.password} included;
 * when it cannot reach the database at start, the JDBC URL as given. The engine logs either
 * exception ("Engine has failed with") through the application's logging, which this project does
 * not configure when the relay runs embedded. This store throws them with the cause alone, masked
 * ({@link Secrets#maskText}).
 */
public final class MaskedJdbcOffsetBackingStore extends JdbcOffsetBackingStore {
  private final AtomicInteger insertSeq = new AtomicInteger();
  private JdbcOffsetBackingStoreConfig settings;
  private RetriableConnection connection;
  private String token;

  @Override
  public void configure(WorkerConfig config) {
    try {
      super.configure(config);
      Map<String, String> originals = config.originalsStrings();
      settings = new JdbcOffsetBackingStoreConfig(Configuration.from(originals));
      token = originals.get(PublishedLog.TOKEN_PROPERTY);
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException(
          "Failed to connect JDBC offset backing store: " + Secrets.maskText(cause.toString()),
          cause);
    }
  }

  @Override
  public synchronized void start() {
    try {
      super.start();
    } catch (RuntimeException e) {
      throw new IllegalStateException(Secrets.maskText(e.getMessage()), e.getCause());
    }
  }

  /** On the store's executor thread, one save at a time. */
  @Override
  protected void save() {
    PublishedLog log = PublishedLog.of(token);
    AtomicReference<List<byte[]>> taken = new AtomicReference<>();
    try {
      connection()
          .executeWithRetry(
              c -> {
                List<byte[]> before = taken.getAndSet(null);
                if (before != null) {
                  log.giveBack(before); // a retry: the attempt before rolled back
                }
                if (log != null) {
                  taken.set(log.insertPending(c));
                }
                try (PreparedStatement delete = c.prepareStatement(settings.getTableDelete());
                    PreparedStatement insert = c.prepareStatement(settings.getTableInsert())) {
                  delete.executeUpdate();
                  Timestamp now = new Timestamp(System.currentTimeMillis());
                  for (Map.Entry<String, String> e : data.entrySet()) {
                    insert.setString(1, UUID.randomUUID().toString());
                    insert.setString(2, e.getKey());
                    insert.setString(3, e.getValue());
                    insert.setTimestamp(4, now);
                    insert.setInt(5, insertSeq.incrementAndGet());
                    insert.executeUpdate();
                  }
                }
                c.commit();
              },
              "Saving offset",
              true);
    } catch (SQLException | RuntimeException e) {
      List<byte[]> lost = taken.get();
      if (lost != null) {
        log.giveBack(lost);
      }
      throw new ConnectException("Saving offset failed: " + Secrets.maskText(e.toString()));
    }
  }

  private RetriableConnection connection() throws SQLException {
    if (connection == null) {
      connection =
          new RetriableConnection(
              settings.getJdbcUrl(),
              settings.getUser(),
              settings.getPassword(),
              settings.getWaitRetryDelay(),
              settings.getMaxRetryCount());
    }
    return connection;
  }

  @Override
  public synchronized void stop() {
    super.stop();
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // closing: nothing left to save on it
      }
      connection = null;
    }
  }
}
