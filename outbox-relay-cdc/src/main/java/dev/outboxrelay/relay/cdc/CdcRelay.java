package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.cdc.internal.debezium.EngineSilence;
import dev.outboxrelay.relay.cdc.internal.debezium.StopDrain;
import dev.outboxrelay.relay.state.DeadLetterSweep;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes outbox INSERTs read from the binlog (MySQL, MariaDB) or the WAL (PostgreSQL) by
 * Debezium embedded, through the same {@link dev.outboxrelay.core.Publisher} SPI and message
 * contract as the polling relay. Build with {@link #builder()}. Thread-safe.
 *
 * <p>{@link #state()}: {@code STARTING} while it takes the source lock, checks the stored position
 * and establishes the stream's; {@code ACTIVE} while it streams; {@code STANDBY} while another
 * instance holds the source lock; {@code FAILED} while the engine waits to be restarted after a
 * failure, and for good once the position is lost or the lock's connection dropped (the relay stops
 * itself); {@code STOPPING}/{@code STOPPED} after {@link #close()} or {@link #abort()}. Counts:
 * keys backing off ({@code retryingKeys}) and parked keys as last read from the table.
 */
public final class CdcRelay implements Relay {
  private static final Logger log = LoggerFactory.getLogger(CdcRelay.class);
  private static final Duration ESTABLISH_WAIT = Duration.ofSeconds(60);
  // No batch for a poll interval and this much more: Debezium's producer has caught up.
  private static final Duration DRAIN_QUIET = Duration.ofMillis(250);
  private static final Duration DRAIN_MAX = Duration.ofSeconds(10);

  private final CdcRelayConfig config;
  private final CdcSql sql;
  private SourceLock lock;
  private DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
  private ExecutorService engineThread;
  private ScheduledExecutorService maintenance;
  private ScheduledExecutorService retention;
  private ScheduledExecutorService deadLetters; // null without a dead-letter topic
  private Thread standby;
  // Volatile: state() reads them without the monitor, which start() and close() hold for long.
  private volatile CdcProcessor processor;
  private volatile boolean started;
  private volatile boolean standingBy;
  private volatile boolean stopped;
  private volatile boolean closed;
  private volatile boolean engineFailed;
  private volatile String engineFailure = "";
  private volatile String failure; // why the relay stopped itself or could not start
  private volatile long restartAt;
  private volatile int failures;

  CdcRelay(CdcRelayConfig config) {
    this.config = config;
    this.sql = new CdcSql(config.table(), config.source().dialect(), config.keepRows());
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
    if (stopped || (started && failure == null)) {
      throw new IllegalStateException(config.name() + " was already started or closed");
    }
    started = true;
    failure = null;
    SourceLock l = tryLock();
    if (l != null) {
      stream(l);
      return this;
    }
    log.info("{} - another relay reads this source; standing by", config.name());
    standingBy = true;
    standby = new Thread(this::standBy, config.name() + "-standby");
    standby.setDaemon(true);
    standby.start();
    return this;
  }

  /**
   * Takes over once the source lock is free. A database error on the way (the position's check, the
   * published log's table, the stores' check: each before the engine starts, the lock released)
   * puts the relay back to standing by, to try again after a backoff: until 2026-12-06 the standby
   * gave up for good, reading FAILED, and the source had no reader once the streaming instance was
   * gone. A lost position or a refused privilege ends it: retrying does not help.
   */
  private void standBy() {
    int attempts = 0;
    try {
      while (!stopped) {
        SourceLock l = tryLock();
        if (l == null) {
          Thread.sleep(500);
          continue;
        }
        standingBy = false;
        try {
          synchronized (this) {
            if (!stopped) {
              stream(l);
            } else {
              l.close();
            }
          }
          return;
        } catch (OutboxDatabaseException e) {
          long delay = config.backoff().apply(++attempts);
          failure = null;
          standingBy = true;
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

  private void stream(SourceLock acquired) {
    lock = acquired;
    try {
      PositionCheck.verify(config, sql);
    } catch (SQLException e) {
      lock.close();
      failure = "could not check its position: " + Secrets.maskText(e.getMessage());
      throw new OutboxDatabaseException(config.name() + " could not check its position", e);
    } catch (CdcPositionLostException e) {
      lock.close();
      failure = "position lost: " + e.getMessage();
      log.error("{}", e.getMessage());
      throw e;
    }
    CdcStore store = new CdcStore(config.dataSource(), sql);
    try {
      store.createLog();
    } catch (SQLException e) {
      lock.close();
      failure = "could not create " + sql.published + ": " + Secrets.maskText(e.getMessage());
      throw new OutboxDatabaseException(config.name() + " could not create " + sql.published, e);
    }
    java.util.Properties engineProperties = DebeziumConfig.of(config, sql);
    try {
      StoreAccess.verify(config, sql, engineProperties);
    } catch (CdcStartException e) {
      lock.close();
      failure = e.getMessage();
      throw e; // start() throws it; a standby taking over logs it
    } catch (SQLException e) {
      lock.close();
      failure = "could not check its stores' privileges: " + Secrets.maskText(e.getMessage());
      throw new OutboxDatabaseException(
          config.name() + " could not check its stores' privileges", e);
    }
    try {
      processor = new CdcProcessor(config, store, engineProperties);
    } catch (RuntimeException e) {
      // Without this the lock would stay held (other instances stand by forever) and the state
      // would read STARTING with nothing moving.
      lock.close();
      failure = "could not set up the stream: " + Secrets.maskText(e.toString());
      throw e;
    }
    engineThread = Executors.newSingleThreadExecutor(r -> thread(r, ""));
    startEngine();
    maintenance = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "-maintenance"));
    maintenance.scheduleWithFixedDelay(this::maintain, 200, 200, TimeUnit.MILLISECONDS);
    maintenance.scheduleWithFixedDelay(this::drainDue, 20, 20, TimeUnit.MILLISECONDS);
    retention = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "-retention"));
    retention.scheduleWithFixedDelay(processor.retention()::run, 50, 50, TimeUnit.MILLISECONDS);
    startDeadLetters();
    if (!awaitEstablished()) {
      return;
    }
    log.info("{} - streaming {} from {}", config.name(), config.table(), config.source().dialect());
  }

  /**
   * With a dead-letter topic: the sweep runs on a thread of its own, so that a slow broker never
   * delays the maintenance (the source lock's check, the engine's restart). Only the relay that
   * streams sweeps; the keys are those the processor parked (or any parked key of the table).
   */
  private void startDeadLetters() {
    config
        .deadLetterTopic()
        .ifPresent(
            topic -> {
              DeadLetterSweep sweep =
                  new DeadLetterSweep(
                      new DeadLetterSweep.Settings(
                          config.name(),
                          config.publisher(),
                          topic,
                          config.publishTimeout(),
                          config.backoff(),
                          config.listener()),
                      () -> {
                        java.sql.Connection c = config.dataSource().getConnection();
                        c.setAutoCommit(true);
                        c.setTransactionIsolation(java.sql.Connection.TRANSACTION_READ_COMMITTED);
                        return c;
                      },
                      sql.state);
              deadLetters =
                  Executors.newSingleThreadScheduledExecutor(r -> thread(r, "-dead-letters"));
              deadLetters.scheduleWithFixedDelay(
                  () -> {
                    try {
                      sweep.run(java.util.List.of());
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  },
                  200,
                  200,
                  TimeUnit.MILLISECONDS);
            });
  }

  /**
   * The engine failed before its first position was established: a setting or privilege Debezium
   * refuses, not an outage (the source lock and the position check just reached the database). The
   * relay stops and {@link #start()} throws, so that no caller reports it running.
   */
  private void failedToStart() {
    String why = engineFailure;
    failure = "the CDC engine failed at start: " + why;
    shutdown(false);
    throw new CdcStartException(config.name() + " - " + failure);
  }

  /**
   * Returns once the stream's position is established, so that every row committed after {@link
   * #start()} returns reaches the relay through the stream, in commit order (rows committed before
   * a first start can only be ordered by their sequence). Gives up waiting, with a warning, after
   * {@link #ESTABLISH_WAIT}, the relay going on establishing in the background (false); throws
   * {@link CdcStartException} when the engine failed first.
   */
  private boolean awaitEstablished() {
    long deadline = System.nanoTime() + ESTABLISH_WAIT.toNanos();
    try {
      while (!processor.awaitEstablished(100)) {
        if (engineFailed && !stopped) {
          failedToStart();
        }
        if (stopped || System.nanoTime() - deadline > 0) {
          log.warn(
              "{} - stream position not established yet; going on in the background",
              config.name());
          return false;
        }
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void startEngine() {
    processor.restarted();
    engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(processor.engineProperties())
            .notifying(processor)
            .using(
                (success, message, error) -> {
                  if (!success && !stopped) {
                    engineFailure = Secrets.maskText(message);
                    restartAt =
                        System.nanoTime()
                            + Duration.ofMillis(config.backoff().apply(++failures)).toNanos();
                    // Not the exception itself: Debezium's messages can hold every setting,
                    // database.password included (JdbcOffsetBackingStore.configure;
                    // MaskedJdbcOffsetBackingStore drops them there).
                    log.error(
                        "{} - engine failed (restart #{} soon): {}{}",
                        config.name(),
                        failures,
                        engineFailure,
                        causes(error));
                    engineFailed = true;
                  }
                })
            .build();
    engineThread.execute(engine);
  }

  private static String causes(Throwable error) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      b.append("\n  caused by ").append(Secrets.maskText(t.toString()));
    }
    return b.toString();
  }

  /** Restarts a failed engine (database restarted, network blip) after a backoff. */
  private synchronized void restartIfFailed() {
    if (!engineFailed || stopped || System.nanoTime() - restartAt < 0) {
      return;
    }
    // STARTING ("restarting the engine") from now on, not the failed engine's last batch read as
    // ACTIVE (or its silence) while the position check below waits for the database.
    processor.restarted();
    engineFailed = false;
    try {
      PositionCheck.verify(config, sql);
      startEngine();
    } catch (SQLException e) {
      engineFailed = true;
      restartAt =
          System.nanoTime() + Duration.ofMillis(config.backoff().apply(++failures)).toNanos();
      log.warn("{} - database not reachable yet: {}", config.name(), e.getMessage());
    } catch (CdcPositionLostException e) {
      failure = "position lost: " + e.getMessage();
      log.error("{}", e.getMessage());
      new Thread(this::close).start();
    }
  }

  private boolean silenceReported; // the maintenance thread's
  private long batchesAtSilence;

  private void maintain() {
    try {
      if (!lock.held()) {
        log.error("{} - lost the source lock connection; stopping", config.name());
        failure = "lost the source lock connection; stopped";
        new Thread(this::close).start();
        return;
      }
      restartIfFailed();
      reportSilence();
      processor.maintain();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("{} - maintenance: {}", config.name(), e.toString());
    }
  }

  /**
   * Logs once when the engine falls silent beyond its heartbeats' limit (state() reads FAILED
   * meanwhile, see {@link EngineSilence}) and once when it hands over batches again.
   */
  private void reportSilence() {
    if (engineFailed) {
      return; // its failure is logged and reported; a restarted engine is watched afresh
    }
    java.util.Optional<Duration> silent = processor.silentBeyondLimit();
    if (silent.isPresent() && !silenceReported) {
      silenceReported = true;
      batchesAtSilence = processor.batchesHandled();
      log.error("{} - {}", config.name(), CdcState.silence(silent.get(), processor));
    } else if (silenceReported && processor.batchesHandled() > batchesAtSilence) {
      silenceReported = false;
      log.info("{} - the engine hands over batches again", config.name());
    }
  }

  private void drainDue() {
    try {
      processor.drainDue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("{} - retrying held keys: {}", config.name(), e.toString());
    }
  }

  /** Stops streaming; processed positions are stored; releases the source lock. */
  @Override
  public void close() {
    stopped = true; // ends a start() still waiting for the stream, which holds the monitor
    synchronized (this) {
      shutdown(false);
    }
  }

  /** Stops as if the process had been killed: the source lock's connection is dropped abruptly. */
  @Override
  public void abort() {
    stopped = true;
    synchronized (this) {
      shutdown(true);
    }
  }

  private void shutdown(boolean abrupt) {
    stopped = true;
    if (standby != null) {
      standby.interrupt();
    }
    if (engine == null) {
      closed = true;
      return;
    }
    processor.stop();
    maintenance.shutdownNow();
    if (deadLetters != null) {
      deadLetters.shutdownNow();
    }
    if (abrupt) {
      // As a killed process: stop mid-batch at once, then drop the lock's connection.
      retention.shutdownNow();
      processor.abort();
      engineThread.shutdownNow();
      await(engineThread, 5);
      lock.abort();
    } else {
      drain();
    }
    try {
      engine.close();
    } catch (IOException | IllegalStateException e) {
      log.debug("{} - engine close: {}", config.name(), e.getMessage());
    }
    processor.stopDrain().release();
    engineThread.shutdown();
    await(engineThread, 30);
    retention.shutdown();
    await(retention, 10);
    if (!abrupt) {
      retainLogged();
    }
    processor.close();
    lock.close();
    engine = null;
    closed = true;
    log.info("{} - stopped", config.name());
  }

  /** At a clean stop, the published rows still in the log are marked now, not at the next start. */
  private void retainLogged() {
    try {
      processor.retention().flush();
    } catch (SQLException e) {
      log.warn(
          "{} - published rows not yet marked at the stop; the next start marks them: {}",
          config.name(),
          Secrets.maskText(e.getMessage()));
    }
  }

  /** Lets Debezium's producer catch up before closing the engine: see {@link StopDrain}. */
  private void drain() {
    try {
      Duration quiet = config.pollInterval().plus(DRAIN_QUIET);
      long start = System.nanoTime();
      // The batch in progress at the stop marks what the broker acknowledged; then the drain.
      boolean idle = processor.awaitIdle(DRAIN_MAX);
      Duration left = DRAIN_MAX.minusNanos(System.nanoTime() - start);
      if (!idle || !processor.stopDrain().awaitCaughtUp(quiet, left)) {
        log.warn(
            "{} - a batch still in progress or Debezium still reading a backlog after {}; stopping"
                + " anyway (Debezium may log"
                + " \"Producer failure\" with an InterruptedException: harmless at a stop)",
            config.name(),
            DRAIN_MAX);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void await(ExecutorService executor, int seconds) {
    try {
      executor.awaitTermination(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Forgets the stored position (after {@link CdcPositionLostException}): the next {@link #start()}
   * republishes every row still pending in the table, then streams from the current position. Must
   * not run while the relay runs.
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
        try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT pg_drop_replication_slot(slot_name)"
                    + " FROM pg_replication_slots WHERE slot_name = ?")) {
          ps.setString(1, config.slotName());
          ps.execute();
        }
      }
      log.warn("{} - stored position reset; pending rows will be republished", config.name());
    } catch (SQLException e) {
      throw new OutboxDatabaseException(config.name() + " could not reset its position", e);
    }
  }

  /** What the relay is doing now; see the class comment. Never blocks. */
  @Override
  public RelayState state() {
    return CdcState.of(this);
  }

  @Override
  public String name() {
    return config.name();
  }

  String failure() {
    return failure;
  }

  boolean started() {
    return started;
  }

  boolean standingBy() {
    return standingBy;
  }

  boolean stopping() {
    return stopped;
  }

  boolean closed() {
    return closed;
  }

  CdcProcessor processor() {
    return processor;
  }

  /** Null unless the engine failed and waits for its restart. */
  String engineFailure() {
    return engineFailed
        ? "engine failed (restart #" + failures + " pending): " + engineFailure
        : null;
  }

  CdcRelayConfig config() {
    return config;
  }

  private Thread thread(Runnable r, String suffix) {
    Thread t = new Thread(r, config.name() + suffix);
    t.setDaemon(true);
    return t;
  }
}
