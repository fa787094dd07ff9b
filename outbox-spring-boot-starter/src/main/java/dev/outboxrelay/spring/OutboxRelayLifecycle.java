package dev.outboxrelay.spring;

import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The embedded relay (polling or CDC) as a {@link SmartLifecycle}: built and started when the
 * application context starts, stopped gracefully when it stops (the batch in flight is finished or
 * left unmarked, leases and locks are released). Its phase, {@value #PHASE}, is below the web
 * server's, so the relay starts before requests arrive and stops only after the web server has
 * stopped taking them; messages saved by the last requests are still relayed.
 */
public final class OutboxRelayLifecycle implements SmartLifecycle {
  /** Starts before, and stops after, the embedded web server and the Kafka listener containers. */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

  private static final Logger log = LoggerFactory.getLogger(OutboxRelayLifecycle.class);

  private final String name;
  private final OutboxProperties.RelayMode mode;
  private final Supplier<Handle> factory;
  private final boolean autoStartup;
  private volatile Handle relay;

  OutboxRelayLifecycle(
      String name, OutboxProperties.RelayMode mode, boolean autoStartup, Supplier<Handle> factory) {
    this.name = name;
    this.mode = mode;
    this.autoStartup = autoStartup;
    this.factory = factory;
  }

  /** What the lifecycle needs of a relay; the polling and CDC relays are adapted to it. */
  interface Handle {
    void start();

    void close();

    boolean isRunning();

    /** State for the health indicator. */
    default java.util.Map<String, Object> details() {
      return java.util.Map.of();
    }
  }

  @Override
  public synchronized void start() {
    if (relay != null) {
      return;
    }
    Handle h = factory.get();
    h.start();
    relay = h;
    log.info(
        "{} - embedded {} relay started", name, mode.name().toLowerCase(java.util.Locale.ROOT));
  }

  @Override
  public synchronized void stop() {
    Handle h = relay;
    if (h == null) {
      return;
    }
    relay = null;
    h.close();
    log.info("{} - embedded relay stopped", name);
  }

  /** Whether {@link #start()} ran and {@link #stop()} did not yet. */
  @Override
  public boolean isRunning() {
    return relay != null;
  }

  /**
   * Whether the relay's threads are alive: the polling worker runs, the CDC relay streams or stands
   * by for the source lock. False before start and after stop.
   */
  public boolean isAlive() {
    Handle h = relay;
    return h != null && h.isRunning();
  }

  /** The relay's state for the health indicator; empty when not started. */
  public java.util.Map<String, Object> details() {
    Handle h = relay;
    return h == null ? java.util.Map.of() : h.details();
  }

  /** {@code outbox.relay.auto-startup}, default true. */
  @Override
  public boolean isAutoStartup() {
    return autoStartup;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }

  /** The relay's name. */
  public String name() {
    return name;
  }

  /** polling or cdc. */
  public OutboxProperties.RelayMode mode() {
    return mode;
  }
}
