package dev.outboxrelay.spring;

import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.micrometer.RelayMeters;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Reads the backlog, the oldest pending age and the parked keys from the table every {@link
 * #INTERVAL} on its own daemon thread and hands them to {@link RelayMeters#sampled}, and the
 * relay's phase and readiness to {@link RelayMeters#sampledState}: a scrape never waits on the
 * database (the daemon samples the same way, every 2 s). Runs with the context, whether or not the
 * relay was started.
 */
final class RelayMetersSampler implements SmartLifecycle {
  /** Ten seconds: each instance of the application samples the same table. */
  static final Duration INTERVAL = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(RelayMetersSampler.class);
  private final RelayMeters meters;
  private final OutboxAdmin admin;
  private final OutboxRelayLifecycle relay;
  private final Duration interval;
  private ScheduledExecutorService executor;

  RelayMetersSampler(
      RelayMeters meters, OutboxAdmin admin, OutboxRelayLifecycle relay, Duration interval) {
    this.meters = meters;
    this.admin = admin;
    this.relay = relay;
    this.interval = interval;
  }

  /** One sample; a failure keeps the last values (a scheduled task that throws would stop). */
  void sample() {
    if (!meters.isBound()) {
      return; // Micrometer on the classpath but no registry: nobody reads these gauges
    }
    boolean tableRead = false;
    try {
      meters.sampled(
          admin.pendingCount(),
          admin.oldestPendingAge().orElse(Duration.ZERO),
          admin.parked().size());
      tableRead = true;
    } catch (RuntimeException e) {
      log.debug("Sampling the outbox table for the meters failed: {}", e.toString());
    }
    // Ready as OutboxHealthIndicator says UP: the relay alive and its table readable.
    meters.sampledState(
        relay.state().map(RelayState::phase).orElse(RelayState.Phase.NEW),
        tableRead && relay.isAlive());
  }

  @Override
  public synchronized void start() {
    if (executor == null) {
      executor =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "outbox-metrics-sampler");
                t.setDaemon(true);
                return t;
              });
      executor.scheduleWithFixedDelay(this::sample, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return executor != null;
  }
}
