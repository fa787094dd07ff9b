package dev.outboxrelay.daemon.config;

import dev.outboxrelay.core.OutboxTable;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One relay of the daemon: a table (polling) or a source (CDC), its pool and its publisher.
 * Defaults are those of {@code PollingRelay} and {@code CdcRelay}.
 */
public record RelayConfig(
    String name,
    Mode mode,
    DatabaseConfig database,
    OutboxTable table,
    boolean createSchema,
    int batchSize,
    int inFlightBatches,
    Duration pollInterval,
    Duration leaseDuration,
    boolean strictOrder,
    boolean listenNotify,
    Duration publishTimeout,
    Duration backoffInitial,
    Duration backoffMax,
    Optional<Duration> keepPublishedFor,
    Map<String, String> debezium,
    PublisherConfig publisher,
    ReconcileConfig reconcile) {

  public RelayConfig {
    debezium = Map.copyOf(debezium);
  }

  /** How a relay finds committed rows. */
  public enum Mode {
    POLLING,
    CDC
  }

  /**
   * The reconciliation loop of {@code run}: every {@code interval}, the rows marked published and
   * created in {@code [now - lag - window, now - lag)} are looked for on the broker.
   */
  public record ReconcileConfig(
      boolean enabled, Duration interval, Duration window, Duration lag, boolean republish) {
    /** The declared defaults: off. */
    public static ReconcileConfig defaults() {
      return new ReconcileConfig(
          DaemonSettings.RECONCILE_ENABLED.defaultValue(),
          DaemonSettings.RECONCILE_INTERVAL.defaultValue(),
          DaemonSettings.RECONCILE_WINDOW.defaultValue(),
          DaemonSettings.RECONCILE_LAG.defaultValue(),
          DaemonSettings.RECONCILE_REPUBLISH.defaultValue());
    }
  }

  /** The database holding the outbox table. */
  public record DatabaseConfig(String url, String username, String password, int poolSize) {
    @Override
    public String toString() {
      return "DatabaseConfig[url="
          + url
          + ", username="
          + username
          + ", poolSize="
          + poolSize
          + "]";
    }
  }

  /**
   * A publisher found by its {@code PublisherFactory} name, with settings passed to that factory,
   * and the relay's dead-letter topic for parked messages (polling relays), if any.
   */
  public record PublisherConfig(
      String type, Map<String, String> settings, Optional<String> deadLetterTopic) {
    public PublisherConfig {
      settings = Map.copyOf(settings);
    }

    /** Without a dead-letter topic. */
    public PublisherConfig(String type, Map<String, String> settings) {
      this(type, settings, Optional.empty());
    }

    @Override
    public String toString() {
      return "PublisherConfig[type="
          + type
          + ", settings="
          + settings.keySet()
          + ", deadLetterTopic="
          + deadLetterTopic.orElse(null)
          + "]";
    }
  }
}
