package dev.outboxrelay.relay.cdc;

import static dev.outboxrelay.core.RelayState.Phase.ACTIVE;
import static dev.outboxrelay.core.RelayState.Phase.FAILED;
import static dev.outboxrelay.core.RelayState.Phase.STARTING;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.relay.engine.DeadLetterSweep;
import dev.outboxrelay.relay.engine.Lifecycle;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streaming session of a CDC relay, from the source lock taken to the stop: the start-up checks
 * (stored position, published log, the stores' privileges), the engine ({@link EngineRunner}) and
 * the relay's threads: {@code -maintenance} (the lock's check, the engine's restart, parked and due
 * keys), {@code -retention} ({@link LoggedMarks}) and, with a dead-letter topic, {@code
 * -dead-letters}. The lock is released on every way out. Its owner serialises {@link #open} and
 * {@link #shutdown}.
 */
final class CdcStream {
  private static final Logger log = LoggerFactory.getLogger(CdcStream.class);
  private static final Duration ESTABLISH_WAIT = Duration.ofSeconds(60);
  // No batch for a poll interval and this much more: Debezium's producer has caught up.
  private static final Duration DRAIN_QUIET = Duration.ofMillis(250);
  private static final Duration DRAIN_MAX = Duration.ofSeconds(10);

  private final CdcRelayConfig config;
  private final CdcSql sql;
  private final Lifecycle lifecycle;
  private final SourceLock lock;
  private final CdcStore store;
  private final CdcProcessor processor;
  private final EngineRunner engine;
  private final Runnable halt;
  private ScheduledExecutorService maintenance;
  private ScheduledExecutorService retention;
  private ScheduledExecutorService deadLetters; // null without a dead-letter topic
  private boolean silenceReported; // the maintenance thread's
  private long batchesAtSilence;

  private CdcStream(
      CdcRelayConfig config,
      CdcSql sql,
      Lifecycle lifecycle,
      SourceLock lock,
      CdcStore store,
      CdcProcessor processor,
      Runnable halt) {
    this.config = config;
    this.sql = sql;
    this.lifecycle = lifecycle;
    this.lock = lock;
    this.store = store;
    this.processor = processor;
    this.halt = halt;
    this.engine = new EngineRunner(config, sql, processor, lifecycle, halt, r -> thread(r, ""));
  }

  /**
   * Checks the stored position and the stores with the lock held, then streams. A failed check
   * releases the lock, leaves the relay FAILED with the reason and throws.
   *
   * @param halt stops the relay for good (it has halted its lifecycle first)
   * @throws CdcPositionLostException if the stored position can no longer be read
   * @throws CdcStartException if a privilege is missing, or the engine failed before its position
   *     was established
   * @throws OutboxDatabaseException if the database failed a check
   */
  static CdcStream open(
      CdcRelayConfig config, CdcSql sql, Lifecycle lifecycle, SourceLock lock, Runnable halt) {
    lifecycle.tryMoveTo(STARTING, "checking the stored position"); // unless a stop came first
    CdcStore store = new CdcStore(config.dataSource(), sql);
    Properties engineProperties = DebeziumConfig.of(config, sql);
    String step = "could not check its position";
    try {
      PositionCheck.verify(config, sql);
      step = "could not create " + sql.published;
      store.createLog();
      step = "could not check its stores' privileges";
      StoreAccess.verify(config, sql, engineProperties);
      step = "could not set up the stream";
      CdcStream s =
          new CdcStream(
              config,
              sql,
              lifecycle,
              lock,
              store,
              new CdcProcessor(config, store, engineProperties),
              halt);
      s.start();
      return s;
    } catch (SQLException e) {
      refused(lifecycle, lock, step + ": " + Secrets.maskText(e.getMessage()));
      throw new OutboxDatabaseException(config.name() + " " + step, e);
    } catch (CdcPositionLostException e) {
      refused(lifecycle, lock, "position lost: " + e.getMessage());
      log.error("{}", e.getMessage());
      throw e;
    } catch (CdcStartException e) {
      refused(lifecycle, lock, e.getMessage());
      throw e; // start() throws it; a standby taking over logs it
    } catch (RuntimeException e) {
      // Without this the lock would stay held (other instances stand by forever) and the state
      // would read STARTING with nothing moving.
      refused(lifecycle, lock, step + ": " + Secrets.maskText(e.toString()));
      throw e;
    }
  }

  private static void refused(Lifecycle lifecycle, SourceLock lock, String reason) {
    lock.close();
    lifecycle.tryMoveTo(FAILED, reason);
  }

  private void start() {
    lifecycle.tryMoveTo(STARTING, "establishing the stream position");
    processor.onRunning(
        () -> {
          if (lifecycle.phase() == STARTING) { // a volatile read per batch, no lock
            lifecycle.moveFrom(STARTING, ACTIVE, "");
          }
        });
    engine.start();
    maintenance = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "-maintenance"));
    maintenance.scheduleWithFixedDelay(this::maintain, 200, 200, TimeUnit.MILLISECONDS);
    maintenance.scheduleWithFixedDelay(this::drainDue, 20, 20, TimeUnit.MILLISECONDS);
    retention = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "-retention"));
    retention.scheduleWithFixedDelay(processor.marks()::run, 50, 50, TimeUnit.MILLISECONDS);
    config.deadLetterTopic().ifPresent(this::startDeadLetters);
    if (awaitEstablished()) {
      log.info(
          "{} - streaming {} from {}", config.name(), config.table(), config.source().dialect());
    }
  }

  /**
   * The sweep runs on a thread of its own, so that a slow broker never delays the maintenance (the
   * source lock's check, the engine's restart). Only the relay that streams sweeps.
   */
  private void startDeadLetters(String topic) {
    DeadLetterSweep sweep = DeadLetterSweep.of(config, topic, store::connection, sql.state);
    deadLetters = Executors.newSingleThreadScheduledExecutor(r -> thread(r, "-dead-letters"));
    deadLetters.scheduleWithFixedDelay(
        () -> {
          try {
            sweep.run(List.of());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        },
        200,
        200,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Returns once the stream's position is established, so that every row committed after {@code
   * start()} returns reaches the relay through the stream, in commit order (rows committed before a
   * first start can only be ordered by their sequence). Gives up waiting, with a warning, after
   * {@link #ESTABLISH_WAIT}, the relay going on establishing in the background (false). The engine
   * failing first is a setting or privilege Debezium refuses, not an outage (the lock and the
   * position check just reached the database): the relay halts and {@link CdcStartException} is
   * thrown, so that no caller reports it running.
   */
  private boolean awaitEstablished() {
    long deadline = System.nanoTime() + ESTABLISH_WAIT.toNanos();
    try {
      while (!processor.awaitEstablished(100)) {
        if (engine.failed() && !lifecycle.stopping()) {
          String failure = "the CDC engine failed at start: " + engine.failure();
          lifecycle.halt(failure);
          shutdown(false);
          throw new CdcStartException(config.name() + " - " + failure);
        }
        if (lifecycle.stopping() || System.nanoTime() - deadline > 0) {
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

  private void maintain() {
    try {
      if (!lock.held()) {
        log.error("{} - lost the source lock connection; stopping", config.name());
        lifecycle.halt("lost the source lock connection; stopped");
        halt.run();
        return;
      }
      engine.restartIfFailed();
      reportSilence();
      processor.maintain();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.warn("{} - maintenance: {}", config.name(), e.toString());
    }
  }

  /**
   * Logs once when the engine falls silent beyond its heartbeats' limit (the state reads FAILED
   * meanwhile, see {@link EngineSilence}) and once when it hands over batches again.
   */
  private void reportSilence() {
    if (engine.failed()) {
      return; // its failure is logged and reported; a restarted engine is watched afresh
    }
    java.util.Optional<Duration> silent = processor.silence().beyondLimit();
    if (silent.isPresent() && !silenceReported) {
      silenceReported = true;
      batchesAtSilence = processor.silence().handled();
      log.error("{} - {}", config.name(), CdcState.silence(silent.get(), processor));
    } else if (silenceReported && processor.silence().handled() > batchesAtSilence) {
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

  /**
   * Stops streaming and releases the lock. A graceful stop lets the batch in progress mark what the
   * broker acknowledged, lets Debezium's producer catch up ({@link StopDrain}) and marks the logged
   * rows; an abrupt one stops mid-batch and drops the lock's connection, as a killed process.
   */
  void shutdown(boolean abrupt) {
    processor.stop();
    maintenance.shutdownNow();
    if (deadLetters != null) {
      deadLetters.shutdownNow();
    }
    if (abrupt) {
      retention.shutdownNow();
      processor.abort();
      engine.interrupt();
      lock.abort();
    } else {
      drain();
    }
    engine.close();
    processor.stopDrain().release();
    engine.awaitEnd();
    retention.shutdown();
    await(retention, 10);
    if (!abrupt) {
      retainLogged();
    }
    processor.close();
    lock.close();
    log.info("{} - stopped", config.name());
  }

  /** At a clean stop, the published rows still in the log are marked now, not at the next start. */
  private void retainLogged() {
    try {
      processor.marks().flush();
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

  CdcProcessor processor() {
    return processor;
  }

  /** Whether the engine failed and waits for its restart. */
  boolean engineFailed() {
    return engine.failed();
  }

  private Thread thread(Runnable r, String suffix) {
    Thread t = new Thread(r, config.name() + suffix);
    t.setDaemon(true);
    return t;
  }
}
