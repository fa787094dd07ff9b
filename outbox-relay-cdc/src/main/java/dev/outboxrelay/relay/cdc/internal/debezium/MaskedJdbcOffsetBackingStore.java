package dev.outboxrelay.relay.cdc.internal.debezium;

import io.debezium.config.Configuration;
import io.debezium.storage.jdbc.RetriableConnection;
import io.debezium.storage.jdbc.offset.JdbcOffsetBackingStore;
import io.debezium.storage.jdbc.offset.JdbcOffsetBackingStoreConfig;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.runtime.WorkerConfig;

/**
 * Debezium's JDBC offset store, writing the relay's published log in the position's transaction.
 *
 * <p>Invariant: each save writes the batches the relay logged since the last one ({@link
 * PublishedLog}, found by the engine's {@link PublishedLog#TOKEN_PROPERTY}) and the positions in
 * one transaction, once: a stored position never runs ahead of the log, an acknowledged batch costs
 * the stream one commit, and a failed save holds up nothing but itself. The positions are written
 * as Debezium's own store writes them (its table, its statements: every row deleted and inserted
 * again), so its loading reads them unchanged. No failure it throws holds a secret ({@link
 * StoreFailures}).
 *
 * <p>Debezium behaviour it answers: {@code JdbcOffsetBackingStore#save} runs its statements in
 * {@code RetriableConnection#executeWithRetry}, which in Debezium 3.5 runs a statement that keeps
 * failing on a healthy database again at once, forever, on the store's only thread
 * (debezium/dbz#2244); and its {@code configure} puts every setting of the engine, {@code
 * database.password} included, into the message of its failure.
 */
public final class MaskedJdbcOffsetBackingStore extends JdbcOffsetBackingStore {
  private final AtomicInteger insertSeq = new AtomicInteger();
  private JdbcOffsetBackingStoreConfig settings;
  // Used by the store's one thread; stop() drops it once that thread is done (or gave up waiting).
  // Not under the monitor: stop() holds it while it waits for that thread, whose save would then
  // wait for stop() (up to the store's 30 s).
  private volatile RetriableConnection connection;
  private String token;

  @Override
  public void configure(WorkerConfig config) {
    try {
      super.configure(config);
      Map<String, String> originals = config.originalsStrings();
      settings = new JdbcOffsetBackingStoreConfig(Configuration.from(originals));
      token = originals.get(PublishedLog.TOKEN_PROPERTY);
    } catch (RuntimeException e) {
      throw StoreFailures.configureFailed(e);
    }
  }

  @Override
  public synchronized void start() {
    try {
      super.start();
    } catch (RuntimeException e) {
      throw StoreFailures.startFailed(e);
    }
  }

  /**
   * On the store's executor thread, one save at a time, one attempt: a refused statement fails the
   * save, which is reported through the published log ({@link PublishedLog#saveFailure}) and to the
   * engine, which keeps the position and offers it again with its next batch or heartbeat (within
   * about a second). Debezium's own retry bounds reconnecting only, and runs a failing statement
   * again without end (a user without INSERT on the published log: 1,500 refused saves a minute).
   * Retrying inside the save would also outlast the engine's wait for it ({@code
   * offset.flush.timeout.ms}, 5 s), and saves would queue behind it. Reconnecting stays Debezium's
   * ({@code offset.storage.jdbc.connection.retry.max.attempts}, {@code ...wait.retry.delay.ms}).
   */
  @Override
  protected void save() {
    PublishedLog log = PublishedLog.of(token);
    try {
      List<byte[]> written =
          connection()
              .executeWithRetry(
                  c -> {
                    return saveOnce(c, log);
                  },
                  "Saving offset",
                  false);
      if (log != null) {
        log.saved(!written.isEmpty());
      }
    } catch (Refused r) {
      SQLException e = r.getCause();
      if (e.getSQLState() == null || e.getSQLState().startsWith("08")) {
        closeConnection(); // the connection broke: the next save reconnects
      }
      throw failed(log, e, r.inLog);
    } catch (SQLException | RuntimeException e) {
      throw failed(log, e, false);
    }
  }

  /**
   * Writes the pending batches of the published log and the positions in one transaction; returns
   * the batches written. On failure the transaction is rolled back and the batches are pending
   * again.
   */
  private List<byte[]> saveOnce(Connection c, PublishedLog log) {
    List<byte[]> taken = List.of();
    boolean inLog = true;
    try {
      if (log != null) {
        taken = log.insertPending(c); // gives its batches back itself when it fails
      }
      inLog = false;
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
      return taken;
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException ignored) {
        // a broken connection: dropped by the caller
      }
      if (!inLog && log != null) {
        log.giveBack(taken);
      }
      SQLException cause = e instanceof SQLException q ? q : new SQLException(e.toString(), e);
      // Not an SQLException: Debezium's retry would run it again, unbounded.
      throw new Refused(cause, inLog);
    }
  }

  private static ConnectException failed(PublishedLog log, Exception e, boolean inLog) {
    String why = StoreFailures.reason(e);
    if (log != null) {
      log.saveFailed(why, inLog);
    }
    return new ConnectException("Saving offset failed: " + why);
  }

  /** A statement of a save failed; its transaction is rolled back. */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final boolean inLog; // the published log's insert failed, not the positions' statements

    Refused(SQLException cause, boolean inLog) {
      super(cause);
      this.inLog = inLog;
    }

    @Override
    public synchronized SQLException getCause() {
      return (SQLException) super.getCause();
    }
  }

  private RetriableConnection connection() throws SQLException {
    RetriableConnection c = connection;
    if (c == null) {
      c =
          new RetriableConnection(
              settings.getJdbcUrl(),
              settings.getUser(),
              settings.getPassword(),
              settings.getWaitRetryDelay(),
              settings.getMaxRetryCount());
      connection = c;
    }
    return c;
  }

  @Override
  public synchronized void stop() {
    try {
      super.stop();
    } finally {
      closeConnection();
    }
  }

  private void closeConnection() {
    RetriableConnection c = connection;
    connection = null;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        // dropped: nothing left to save on it
      }
    }
  }
}
