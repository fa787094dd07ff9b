package dev.outboxrelay.relay.cdc;

import static dev.outboxrelay.core.RelayState.Phase.FAILED;
import static dev.outboxrelay.core.RelayState.Phase.NEW;
import static dev.outboxrelay.core.RelayState.Phase.STANDBY;
import static dev.outboxrelay.core.RelayState.Phase.STARTING;
import static dev.outboxrelay.core.RelayState.Phase.STOPPED;
import static dev.outboxrelay.core.RelayState.Phase.STOPPING;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.engine.Lifecycle;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes outbox INSERTs read from the binlog (MySQL, MariaDB) or the WAL (PostgreSQL) by
 * Debezium embedded, through the same {@link dev.outboxrelay.core.Publisher} SPI and message
 * contract as the polling relay. Build with {@link #builder()}. Thread-safe.
 *
 * <p>Its life is one {@link Lifecycle}, which {@link #state()} reports: {@code STARTING} while it
 * takes the source lock, checks the stored position and establishes the stream's; {@code ACTIVE}
 * while it streams; {@code STANDBY} while another instance holds the source lock; {@code FAILED}
 * while the engine waits to be restarted after a failure, and for good once the position is lost or
 * the lock's connection dropped (the relay stops itself); {@code STOPPING}/{@code STOPPED} after
 * {@link #close()} or {@link #abort()}. Counts: keys backing off ({@code retryingKeys}) and parked
 * keys as last read from the table.
 */
public final class CdcRelay implements Relay {
  private static final Logger log = LoggerFactory.getLogger(CdcRelay.class);
  private static final long STANDBY_POLL_MILLIS = 500;
  private static final Duration SLOT_RELEASE = Duration.ofSeconds(10);

  private final CdcRelayConfig config;
  private final CdcSql sql;
  private final Lifecycle lifecycle;
  private Thread standby;
  // Volatile: state() reads it without the monitor, which start() and close() hold for long.
  private volatile CdcStream stream;

  CdcRelay(CdcRelayConfig config) {
    this.config = config;
    this.sql = new CdcSql(config.table(), config.source().dialect(), config.keepRows());
    this.lifecycle = new Lifecycle(config.name());
  }

  public static CdcRelayBuilder builder() {
    return new CdcRelayBuilder();
  }

  /**
   * Starts streaming if this relay gets the source lock at once; otherwise stands by in the
   * background and takes over when the relay holding the lock goes away. Before streaming, the
   * stored position is checked; the call returns once the stream's position is established (at most
   * about a minute), and rows still pending in the table are published before the stream's.
   *
   * @throws CdcPositionLostException if the stored position can no longer be read
   * @throws CdcStartException if the engine failed before its position was established
   * @throws IllegalStateException if already started (and not failed to start) or closed
   */
  @Override
  public synchronized CdcRelay start() {
    boolean startable = lifecycle.phase() == NEW || lifecycle.phase() == FAILED && stream == null;
    if (!startable
        || lifecycle.stopping()
        || !lifecycle.tryMoveTo(STARTING, "taking the source lock")) {
      throw new IllegalStateException(config.name() + " was already started or closed");
    }
    SourceLock l = tryLock();
    if (l != null) {
      stream = CdcStream.open(config, sql, lifecycle, l, this::stopItself);
      return this;
    }
    if (!lifecycle.tryMoveTo(STANDBY, "another instance holds the source lock")) {
      return this; // closed meanwhile
    }
    log.info("{} - another relay reads this source; standing by", config.name());
    standby = new Thread(this::standBy, config.name() + "-standby");
    standby.setDaemon(true);
    standby.start();
    return this;
  }

  /**
   * Takes over once the source lock is free. A database error on the way (the position's check, the
   * published log's table, the stores' check: each before the engine starts, the lock released)
   * puts the relay back to standing by, to try again after a backoff, so that a source never stays
   * without a reader once the streaming instance is gone. A lost position or a refused privilege
   * ends the standby: retrying does not help.
   */
  private void standBy() {
    int attempts = 0;
    try {
      while (!lifecycle.stopping()) {
        SourceLock l = tryLock();
        if (l == null) {
          Thread.sleep(STANDBY_POLL_MILLIS);
          continue;
        }
        try {
          synchronized (this) {
            if (!lifecycle.stopping()) {
              stream = CdcStream.open(config, sql, lifecycle, l, this::stopItself);
            } else {
              l.close();
            }
          }
          return;
        } catch (OutboxDatabaseException e) {
          long delay = config.backoff().apply(++attempts);
          lifecycle.tryMoveTo(STANDBY, "another instance holds the source lock");
          log.warn(
              "{} - could not take over, standing by again (retry in {} ms): {}",
              config.name(),
              delay,
              e.getMessage());
          Thread.sleep(delay);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (CdcPositionLostException e) {
      // already logged; the standby does not take over a source whose position is gone
    } catch (CdcStartException e) {
      log.error("{}", e.getMessage());
    }
  }

  private SourceLock tryLock() {
    try {
      return SourceLock.tryAcquire(
          config.jdbcUrl(),
          config.user(),
          config.password(),
          config.source().dialect(),
          config.name());
    } catch (SQLException e) {
      log.warn("{} - cannot take the source lock: {}", config.name(), e.getMessage());
      return null;
    }
  }

  /** The relay halted (its lifecycle says why): it stops on a thread of its own. */
  private void stopItself() {
    new Thread(this::close, config.name() + "-halt").start();
  }

  /** Stops streaming; processed positions are stored; releases the source lock. */
  @Override
  public void close() {
    stop(false);
  }

  /** Stops as if the process had been killed: the source lock's connection is dropped abruptly. */
  @Override
  public void abort() {
    stop(true);
  }

  private void stop(boolean abrupt) {
    // Before the monitor: ends a start() still waiting for the stream, which holds it.
    lifecycle.tryMoveTo(STOPPING, "stopping");
    synchronized (this) {
      lifecycle.tryMoveTo(STOPPING, "stopping"); // a halted relay reaches here from FAILED
      if (standby != null) {
        standby.interrupt();
      }
      CdcStream s = stream;
      if (s != null) {
        s.shutdown(abrupt);
        stream = null;
      }
      lifecycle.tryMoveTo(STOPPED, "stopped");
    }
  }

  /**
   * Forgets the stored position (after {@link CdcPositionLostException}): the next {@link #start()}
   * republishes every row still pending in the table, then streams from the current position. Must
   * not run while the relay runs.
   *
   * @throws IllegalStateException if a relay still streams from the PostgreSQL slot after 10 s
   * @throws OutboxDatabaseException if the database failed the reset
   */
  public void resetPosition() {
    try (Connection c =
        DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password())) {
      if (PositionCheck.storedOffset(c, config, sql).isPresent()) {
        try (PreparedStatement ps =
            c.prepareStatement("DELETE FROM " + sql.offsets + " WHERE offset_key LIKE ?")) {
          ps.setString(1, "%\"" + config.name() + "\"%");
          ps.executeUpdate();
        }
      }
      if (sql.dialect == SqlDialect.POSTGRESQL) {
        dropSlot(c);
      }
      log.warn("{} - stored position reset; pending rows will be republished", config.name());
    } catch (SQLException e) {
      throw new OutboxDatabaseException(config.name() + " could not reset its position", e);
    }
  }

  /**
   * Drops the replication slot once no session streams from it: a relay that just stopped leaves
   * its walsender a moment behind it; one still in use after {@link #SLOT_RELEASE} belongs to a
   * running relay, which a reset must not pull the slot from.
   */
  private void dropSlot(Connection c) throws SQLException {
    long deadline = System.nanoTime() + SLOT_RELEASE.toNanos();
    try (PreparedStatement active =
            c.prepareStatement(
                "SELECT active_pid FROM pg_replication_slots WHERE slot_name = ? AND active");
        PreparedStatement drop =
            c.prepareStatement(
                "SELECT pg_drop_replication_slot(slot_name)"
                    + " FROM pg_replication_slots WHERE slot_name = ?")) {
      active.setString(1, config.slotName());
      while (true) {
        try (ResultSet rs = active.executeQuery()) {
          if (!rs.next()) {
            break;
          }
          if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException(
                config.name()
                    + " cannot reset its position: replication slot '"
                    + config.slotName()
                    + "' is in use by PID "
                    + rs.getInt(1)
                    + "; stop the relay streaming from it first");
          }
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SQLException("interrupted while waiting for the slot's release", e);
        }
      }
      drop.setString(1, config.slotName());
      drop.execute();
    }
  }

  /** What the relay is doing now; see the class comment. Never blocks. */
  @Override
  public RelayState state() {
    return CdcState.of(lifecycle.now(), stream);
  }

  @Override
  public String name() {
    return config.name();
  }

  CdcRelayConfig config() {
    return config;
  }
}
