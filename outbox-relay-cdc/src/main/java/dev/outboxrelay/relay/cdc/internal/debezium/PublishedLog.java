package dev.outboxrelay.relay.cdc.internal.debezium;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The acknowledged batches of one relay not yet in its published log table ({@code
 * <table>_cdc_published}), and how the last save of a position went.
 *
 * <p>Invariant: a stored position never runs ahead of the published log. A batch leaves this log
 * only in a transaction that writes it to the table (the one that stores the engine's position, in
 * {@link MaskedJdbcOffsetBackingStore}, or one the relay runs itself for what that store did not
 * take: another offset store, a failed save, the start-up catch-up where no position is stored); if
 * that transaction does not commit, the batch is pending again, ahead of later ones.
 *
 * <p>Debezium behaviour it answers: Debezium instantiates the offset store by class name ({@code
 * offset.storage}) and hands it nothing but the engine's settings. So the store finds its relay's
 * log by a token in those settings ({@link #TOKEN_PROPERTY}), and reports each save back here,
 * since the engine only logs a failed save and offers the position again. Thread-safe.
 */
public final class PublishedLog implements AutoCloseable {
  /** The engine setting that names the log to the offset store. */
  public static final String TOKEN_PROPERTY = "offset.storage.outbox.published.log";

  private static final Map<String, PublishedLog> LOGS = new ConcurrentHashMap<>();

  private final String token = UUID.randomUUID().toString();
  private final String insert;
  private final ArrayDeque<byte[]> pending = new ArrayDeque<>();
  // Written by the offset store's one thread (and at an engine's restart), read by any.
  private volatile String saveFailure; // null while the last save of a position succeeded
  private volatile boolean logRefused;

  /** {@code insert}: the statement that logs one batch, its ids as the one parameter. */
  public PublishedLog(String insert) {
    this.insert = insert;
    LOGS.put(token, this);
  }

  static PublishedLog of(String token) {
    return token == null ? null : LOGS.get(token);
  }

  public String token() {
    return token;
  }

  /** A batch's acknowledged ids, to be logged with the next stored position. */
  public void add(List<UUID> ids) {
    if (ids.isEmpty()) {
      return;
    }
    ByteBuffer bytes = ByteBuffer.allocate(16 * ids.size());
    ids.forEach(
        id -> bytes.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()));
    synchronized (this) {
      pending.add(bytes.array());
    }
  }

  public synchronized boolean isEmpty() {
    return pending.isEmpty();
  }

  /**
   * Logs every pending batch in {@code c}'s transaction, which the caller commits; if it does not,
   * it calls {@link #giveBack} with what this returned.
   */
  public List<byte[]> insertPending(Connection c) throws SQLException {
    List<byte[]> taken;
    synchronized (this) {
      taken = new ArrayList<>(pending);
      pending.clear();
    }
    if (taken.isEmpty()) {
      return taken;
    }
    try (PreparedStatement ps = c.prepareStatement(insert)) {
      for (byte[] batch : taken) {
        ps.setBytes(1, batch);
        ps.addBatch();
      }
      ps.executeBatch();
    } catch (SQLException | RuntimeException e) {
      giveBack(taken);
      throw e;
    }
    return taken;
  }

  /** Batches taken by {@link #insertPending} whose transaction did not commit: pending again. */
  public synchronized void giveBack(List<byte[]> taken) {
    for (int i = taken.size() - 1; i >= 0; i--) {
      pending.addFirst(taken.get(i));
    }
  }

  /**
   * The offset store saved a position, with {@code batches} of this log or none. A failure to write
   * this log is cleared only by a save that wrote batches: a save with none to write (a heartbeat)
   * succeeds even where the log's insert is refused, and the state would flap between failed and
   * active with the load.
   */
  void saved(boolean batches) {
    if (batches || !logRefused) {
      saveFailure = null;
      logRefused = false;
    }
  }

  /**
   * The offset store's save failed ({@code why}, masked); {@code inLog}: at this log's insert, not
   * at the position's statements.
   */
  void saveFailed(String why, boolean inLog) {
    logRefused = inLog;
    saveFailure = why;
  }

  /** A new engine: what the one before failed to save is no longer this relay's state. */
  public void restarted() {
    saveFailure = null;
    logRefused = false;
  }

  /**
   * Why the offset store's last save of a position failed, or null if it succeeded (or none was
   * tried yet). While positions are not stored, a PostgreSQL slot keeps the WAL since the last
   * stored one, a MySQL/MariaDB binlog may be purged past it (the position is then lost at the next
   * start), and a restart reads the stream again from there.
   */
  public String saveFailure() {
    return saveFailure;
  }

  @Override
  public void close() {
    LOGS.remove(token);
  }
}
