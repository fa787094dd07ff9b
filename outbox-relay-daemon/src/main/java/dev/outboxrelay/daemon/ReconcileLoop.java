package dev.outboxrelay.daemon;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.daemon.config.RelayConfig.ReconcileConfig;
import dev.outboxrelay.micrometer.ReconcileMeters;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code verify} on a schedule, inside {@code run}: every {@code interval}, the rows marked
 * published and created in {@code [now - lag - window, now - lag)} are looked for on the broker
 * ({@link Reconciliation}, {@link BrokerCheck}); each one missing is logged at WARN (id, key,
 * topic; never the payload) and counted, and with {@code republish} sent again (same id) through
 * the relay's own publisher. A run that fails (database or broker) is logged at WARN, counted as a
 * failure, and reports nothing missing. One thread per relay; {@link #close()} stops it.
 */
final class ReconcileLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReconcileLoop.class);

  /** How long before the window the broker is searched: clock skew between database and broker. */
  static final Duration SLACK = Duration.ofMinutes(5);

  private static final int WARN_LINES = 100;

  private final RelayConfig relay;
  private final ReconcileConfig config;
  private final OutboxAdmin admin;
  private final BrokerCheck check;
  private final Publisher publisher;
  private final ReconcileMeters meters;
  private final Clock clock;
  private ScheduledExecutorService thread;

  ReconcileLoop(
      RelayConfig relay,
      BrokerCheck check,
      OutboxAdmin admin,
      Publisher publisher,
      ReconcileMeters meters,
      Clock clock) {
    this.relay = relay;
    this.config = relay.reconcile();
    this.admin = admin;
    this.check = check;
    this.publisher = publisher;
    this.meters = meters;
    this.clock = clock;
  }

  /** Runs every {@code interval}, the first time one interval from now. */
  synchronized void start() {
    thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "outbox-reconcile-" + relay.name());
              t.setDaemon(true);
              return t;
            });
    long every = config.interval().toMillis();
    thread.scheduleWithFixedDelay(this::runSafely, every, every, TimeUnit.MILLISECONDS);
    log.info(
        "Relay {} - reconcile every {}: window {} ending {} ago, republish {}",
        relay.name(),
        config.interval(),
        config.window(),
        config.lag(),
        config.republish());
  }

  /** A scheduled task that throws is never run again: every failure is caught and counted. */
  private void runSafely() {
    try {
      runOnce();
    } catch (RuntimeException e) {
      meters.failed();
      log.warn(
          "Relay {} - reconcile run failed, retried at the next interval: {}",
          relay.name(),
          Wiring.rootMessage(e));
    }
  }

  /** One run; returns the messages found missing. */
  List<OutboxMessage> runOnce() {
    long started = System.nanoTime();
    Instant to = clock.instant().minus(config.lag());
    Instant from = to.minus(config.window());
    Reconciliation window = Reconciliation.read(admin, check.topics(), from, to);
    List<OutboxMessage> missing =
        window.missing(check, from.minus(SLACK), l -> log.debug("Relay {} - {}", relay.name(), l));
    for (OutboxMessage m : missing.subList(0, Math.min(missing.size(), WARN_LINES))) {
      log.warn(
          "Relay {} - reconcile: message missing on the broker: id={} key={} topic={}",
          relay.name(),
          m.id(),
          m.aggregateId(),
          check.topics().topicFor(m));
    }
    if (missing.size() > WARN_LINES) {
      log.warn(
          "Relay {} - reconcile: ... and {} more missing",
          relay.name(),
          missing.size() - WARN_LINES);
    }
    int republished = 0;
    if (config.republish() && !missing.isEmpty()) {
      republished =
          Reconciliation.republish(
              publisher,
              missing,
              l -> log.debug("Relay {} - {}", relay.name(), l),
              l -> log.warn("Relay {} - reconcile: {}", relay.name(), l));
    }
    meters.completed(
        window.expected(),
        missing.size(),
        republished,
        Duration.ofNanos(System.nanoTime() - started),
        clock.instant());
    String summary =
        "Relay {} - reconcile [{}, {}): {} checked, {} missing, {} republished, {} discarded";
    Object[] args = {
      relay.name(),
      from,
      to,
      window.expected(),
      missing.size(),
      republished,
      window.discarded().size()
    };
    if (missing.isEmpty()) {
      log.debug(summary, args);
    } else {
      log.info(summary, args);
    }
    return missing;
  }

  /** Stops the loop; a run in progress is interrupted and waited for briefly. */
  @Override
  public synchronized void close() {
    if (thread != null) {
      thread.shutdownNow();
      try {
        thread.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      thread = null;
    }
  }
}
