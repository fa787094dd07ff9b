package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.RelaySettings;
import dev.outboxrelay.core.Setting;
import java.time.Duration;
import java.util.List;

/**
 * Every setting of {@link PollingRelayBuilder}, declared once: the builder, the daemon and the
 * Spring starter take defaults and rules from here (see {@link Setting}).
 */
public final class PollingSettings {
  /** Log prefix and thread names. */
  public static final Setting<String> NAME =
      Setting.text(
          "name",
          "outbox-relay",
          n -> !n.isBlank() && n.length() <= 80,
          "must be 1 to 80 characters",
          "log prefix and thread names");

  public static final Setting<Integer> BATCH_SIZE = RelaySettings.BATCH_SIZE;

  /** Batches awaiting acknowledgements at once; 1 is the sequential loop. */
  public static final Setting<Integer> IN_FLIGHT_BATCHES =
      Setting.integer(
          "in-flight-batches", 3, 1, 8, "batches awaiting acknowledgements at once (1 sequential)");

  /**
   * The longest idle wait between claims (a live stream is polled sooner); with NOTIFY the
   * backstop.
   */
  public static final Setting<Duration> POLL_INTERVAL =
      Setting.duration(
          "poll-interval",
          Duration.ofMillis(250),
          Duration.ofMillis(1),
          "longest idle wait between claims (a live stream is polled sooner); with NOTIFY only the backstop");

  /** How long a bucket lease lasts without renewal (renewed every third of it). */
  public static final Setting<Duration> LEASE_DURATION =
      Setting.duration(
          "lease-duration",
          Duration.ofSeconds(10),
          Duration.ofSeconds(1),
          "bucket lease length, renewed every third");

  public static final Setting<Duration> PUBLISH_TIMEOUT = RelaySettings.PUBLISH_TIMEOUT;
  public static final Setting<Duration> BACKOFF_INITIAL = RelaySettings.BACKOFF_INITIAL;
  public static final Setting<Duration> BACKOFF_MAX = RelaySettings.BACKOFF_MAX;

  /** PostgreSQL only: publish in insertion order across overlapping transactions. */
  public static final Setting<Boolean> STRICT_ORDER =
      Setting.bool("strict-order", false, "PostgreSQL only: transaction-id horizon order");

  /** PostgreSQL: wake on the writer's NOTIFY at commit (OutboxBuilder.wakeUpInterval). */
  public static final Setting<Boolean> LISTEN_NOTIFY =
      Setting.bool("listen-notify", true, "PostgreSQL: wake on the writer's NOTIFY at commit");

  /** A parked key's message is copied there once; off when unset. */
  public static final Setting<String> DEAD_LETTER_TOPIC = RelaySettings.DEAD_LETTER_TOPIC;

  /** Every setting above, in the README's order. */
  public static final List<Setting<?>> ALL =
      List.of(
          NAME,
          BATCH_SIZE,
          IN_FLIGHT_BATCHES,
          POLL_INTERVAL,
          LEASE_DURATION,
          PUBLISH_TIMEOUT,
          BACKOFF_INITIAL,
          BACKOFF_MAX,
          STRICT_ORDER,
          LISTEN_NOTIFY,
          DEAD_LETTER_TOPIC);

  private PollingSettings() {}
}
