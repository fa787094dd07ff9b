package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.relay.engine.RelayBuilder;
import java.time.Duration;

/**
 * Configures a {@link PollingRelay}: the settings both relays have come from {@link RelayBuilder},
 * the polling relay's own are here. Each setting is validated as it is given, by its declaration in
 * {@link PollingSettings} (which also holds the defaults stated below). Not thread-safe.
 */
public final class PollingRelayBuilder extends RelayBuilder<PollingRelayBuilder> {
  private int inFlightBatches = PollingSettings.IN_FLIGHT_BATCHES.defaultValue();
  private Duration leaseDuration = PollingSettings.LEASE_DURATION.defaultValue();
  private boolean strictOrder = PollingSettings.STRICT_ORDER.defaultValue();
  private boolean listenNotify = PollingSettings.LISTEN_NOTIFY.defaultValue();

  PollingRelayBuilder() {
    super(PollingSettings.NAME, PollingSettings.BATCH_SIZE, PollingSettings.POLL_INTERVAL);
  }

  /**
   * How many batches may await the broker's acknowledgements at once. The leased buckets are split
   * into this many lanes ({@code bucket % n}); while one lane's batch is acknowledged the next lane
   * is claimed and sent. No key is ever in two batches at once, so per-key order does not depend on
   * it. 1 is the strictly sequential claim, publish, mark loop; {@link #strictOrder} always uses 1.
   * 1 to 8; default: 3 (see the benchmarks README for 1, 2 and 3 measured on PostgreSQL and
   * MariaDB).
   */
  public PollingRelayBuilder inFlightBatches(int inFlightBatches) {
    this.inFlightBatches = PollingSettings.IN_FLIGHT_BATCHES.check(inFlightBatches);
    return this;
  }

  /**
   * How long a bucket lease lasts without renewal (renewed every third of it). At least 1 s;
   * default: 10 s.
   */
  public PollingRelayBuilder leaseDuration(Duration leaseDuration) {
    this.leaseDuration = PollingSettings.LEASE_DURATION.check(leaseDuration);
    return this;
  }

  /**
   * PostgreSQL only: publish a row only once every transaction that started before it has ended
   * (transaction-id horizon), so rows of one key are published in insertion order even when their
   * transactions commit in the opposite order. Costs latency while long transactions run. Default:
   * off.
   */
  public PollingRelayBuilder strictOrder(boolean strictOrder) {
    this.strictOrder = strictOrder;
    return this;
  }

  /**
   * PostgreSQL: wake on the writer's NOTIFY at commit (OutboxBuilder.wakeUpInterval). Default: on.
   */
  public PollingRelayBuilder listenNotify(boolean listenNotify) {
    this.listenNotify = listenNotify;
    return this;
  }

  /**
   * Builds the relay (not started).
   *
   * @throws OutboxConfigException if the data source or publisher is missing, the backoff bounds
   *     are inverted, or the publisher cannot send to the dead-letter topic
   */
  public PollingRelay build() {
    return new PollingRelay(
        new PollingRelayConfig(core(), inFlightBatches, leaseDuration, strictOrder, listenNotify));
  }
}
