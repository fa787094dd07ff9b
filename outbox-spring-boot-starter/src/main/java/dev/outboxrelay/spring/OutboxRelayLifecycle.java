package dev.outboxrelay.spring;

import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayState;
import java.util.Optional;
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
  private final Supplier<Relay> factory;
  private final boolean autoStartup;
  private volatile Relay relay;

  OutboxRelayLifecycle(
      String name, OutboxProperties.RelayMode mode, boolean autoStartup, Supplier<Relay> factory) {
    this.name = name;
    this.mode = mode;
    this.autoStartup = autoStartup;
    this.factory = factory;
  }

  @Override
  public synchronized void start() {
    if (relay != null) {
      return;
    }
    Relay r = factory.get();
    r.start();
    relay = r;
    log.info(
        "{} - embedded {} relay started", name, mode.name().toLowerCase(java.util.Locale.ROOT));
  }

  @Override
  public synchronized void stop() {
    Relay r = relay;
    if (r == null) {
      return;
    }
    relay = null;
    r.close();
    log.info("{} - embedded relay stopped", name);
  }

  /** Whether {@link #start()} ran and {@link #stop()} did not yet. */
  @Override
  public boolean isRunning() {
    return relay != null;
  }

  /**
   * Whether the relay is started and working or waiting for work: its {@linkplain #state() phase}
   * is {@code STARTING}, {@code ACTIVE} or {@code STANDBY}. False before start, after stop, and
   * while the relay is {@code FAILED}.
   */
  public boolean isAlive() {
    return state()
        .map(
            s ->
                s.phase() == RelayState.Phase.STARTING
                    || s.phase() == RelayState.Phase.ACTIVE
                    || s.phase() == RelayState.Phase.STANDBY)
        .orElse(false);
  }

  /** What the relay is doing ({@link Relay#state()}); empty while it is not started. */
  public Optional<RelayState> state() {
    Relay r = relay;
    return r == null ? Optional.empty() : Optional.of(r.state());
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
