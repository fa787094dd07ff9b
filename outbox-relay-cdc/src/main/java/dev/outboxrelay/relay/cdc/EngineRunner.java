package dev.outboxrelay.relay.cdc;

import static dev.outboxrelay.core.RelayState.Phase.FAILED;
import static dev.outboxrelay.core.RelayState.Phase.STARTING;

import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.relay.engine.Lifecycle;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the Debezium engine on its own thread and restarts it after a failure (database restarted,
 * network blip), with the relay's backoff and a fresh position check first: the relay reads FAILED
 * while a restart is pending and STARTING while the restarted engine has not delivered a batch yet.
 * A restart never streams past a lost position: the relay halts instead. Thread-safe.
 */
final class EngineRunner {
  private static final Logger log = LoggerFactory.getLogger(EngineRunner.class);

  private final CdcRelayConfig config;
  private final CdcSql sql;
  private final CdcProcessor processor;
  private final Lifecycle lifecycle;
  private final Runnable halt; // stops the relay for good, on a thread of its own
  private final ExecutorService thread;
  private DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
  private volatile boolean failed;
  private volatile String failure = "";
  private volatile long restartAt;
  private volatile int failures;

  EngineRunner(
      CdcRelayConfig config,
      CdcSql sql,
      CdcProcessor processor,
      Lifecycle lifecycle,
      Runnable halt,
      java.util.concurrent.ThreadFactory threads) {
    this.config = config;
    this.sql = sql;
    this.processor = processor;
    this.lifecycle = lifecycle;
    this.halt = halt;
    this.thread = Executors.newSingleThreadExecutor(threads);
  }

  synchronized void start() {
    processor.restarted();
    engine =
        DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
            .using(processor.engineProperties())
            .notifying(processor)
            .using(
                (success, message, error) -> {
                  if (!success && !lifecycle.stopping()) {
                    failed(Secrets.maskText(message), error);
                  }
                })
            .build();
    thread.execute(engine);
  }

  private void failed(String message, Throwable error) {
    failure = message;
    restartAt = config.ticker().read() + backoff().toNanos();
    // Not the exception itself: Debezium's messages can hold every setting, database.password
    // included (JdbcOffsetBackingStore.configure; MaskedJdbcOffsetBackingStore drops them there).
    log.error(
        "{} - engine failed (restart #{} soon): {}{}",
        config.name(),
        failures,
        failure,
        causes(error));
    failed = true;
    lifecycle.tryMoveTo(FAILED, failureReason());
  }

  private Duration backoff() {
    return Duration.ofMillis(config.backoff().apply(++failures));
  }

  private static String causes(Throwable error) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      b.append("\n  caused by ").append(Secrets.maskText(t.toString()));
    }
    return b.toString();
  }

  /** Restarts a failed engine once its backoff is over; the relay's maintenance thread. */
  synchronized void restartIfFailed() {
    if (!failed || lifecycle.stopping() || config.ticker().read() - restartAt < 0) {
      return;
    }
    // STARTING from now on, not the failed engine's last batch read as ACTIVE (or its silence)
    // while the position check below waits for the database.
    processor.restarted();
    failed = false;
    lifecycle.tryMoveTo(STARTING, "restarting the engine");
    try {
      PositionCheck.verify(config, sql);
      start();
    } catch (SQLException e) {
      restartAt = config.ticker().read() + backoff().toNanos();
      failed = true;
      lifecycle.tryMoveTo(FAILED, failureReason());
      log.warn("{} - database not reachable yet: {}", config.name(), e.getMessage());
    } catch (CdcPositionLostException e) {
      log.error("{}", e.getMessage());
      lifecycle.halt("position lost: " + e.getMessage());
      halt.run();
    }
  }

  private String failureReason() {
    return "engine failed (restart #" + failures + " pending): " + failure;
  }

  /** Whether the engine failed and waits for its restart. */
  boolean failed() {
    return failed;
  }

  /** Why the engine failed (masked), for a failure at start. */
  String failure() {
    return failure;
  }

  /** As a killed process: the engine's thread is interrupted mid-batch (waits at most 5 s). */
  void interrupt() {
    thread.shutdownNow();
    await(5);
  }

  /** Closes the engine: its producer stops. */
  void close() {
    try {
      engine.close();
    } catch (IOException | IllegalStateException e) {
      log.debug("{} - engine close: {}", config.name(), e.getMessage());
    }
  }

  /** After {@link #close}: the engine's thread ends (at most 30 s). */
  void awaitEnd() {
    thread.shutdown();
    await(30);
  }

  private void await(int seconds) {
    try {
      thread.awaitTermination(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
