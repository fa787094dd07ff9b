package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.RelaySettings;
import dev.outboxrelay.core.Setting;
import java.time.Duration;
import java.util.List;

/**
 * Every setting of {@link CdcRelayBuilder} that has a single value, declared once: the builder, the
 * daemon and the Spring starter take defaults and rules from here (see {@link Setting}).
 */
public final class CdcSettings {
  private static final String NAME_PATTERN = "[A-Za-z][A-Za-z0-9_-]{0,40}";

  /** Engine name: offsets key, replication slot and publication (PostgreSQL), lock name. */
  public static final Setting<String> NAME =
      Setting.text(
          "name",
          "outbox-cdc",
          n -> n.matches(NAME_PATTERN),
          "must match " + NAME_PATTERN,
          "engine name, PostgreSQL slot and publication, offsets key, lock name");

  /**
   * Debezium's {@code max.batch.size}; the catch-up and drain chunk. Default 2048, Debezium's own:
   * the relay waits for each batch's acknowledgements before it stores the position, a fixed wait
   * per batch, and with 500 (the polling relay's default) that wait kept the backlog drain below
   * Debezium + Event Router's (docs/benchmarks.md, "The CDC batch size"). Half the bound on
   * duplicates per crash ({@code 2 × batchSize}).
   */
  public static final Setting<Integer> BATCH_SIZE = RelaySettings.BATCH_SIZE.withDefault(2048);

  /** Debezium's {@code poll.interval.ms} (Debezium's own default is 500 ms). */
  public static final Setting<Duration> POLL_INTERVAL =
      Setting.duration(
          "poll-interval",
          Duration.ofMillis(20),
          Duration.ofMillis(1),
          "Debezium's poll.interval.ms");

  public static final Setting<Duration> PUBLISH_TIMEOUT = RelaySettings.PUBLISH_TIMEOUT;
  public static final Setting<Duration> BACKOFF_INITIAL = RelaySettings.BACKOFF_INITIAL;
  public static final Setting<Duration> BACKOFF_MAX = RelaySettings.BACKOFF_MAX;

  /** Keep published rows this long for a replay window; no default: delete after capture. */
  public static final Setting<Duration> KEEP_PUBLISHED_FOR =
      Setting.duration(
          "keep-published-for",
          null,
          Duration.ofMillis(1),
          "keep published rows this long; unset: delete right after capture");

  /** A parked key's message is copied there once; off when unset. */
  public static final Setting<String> DEAD_LETTER_TOPIC = RelaySettings.DEAD_LETTER_TOPIC;

  /** Every setting above, in the README's order. */
  public static final List<Setting<?>> ALL =
      List.of(
          NAME,
          KEEP_PUBLISHED_FOR,
          BATCH_SIZE,
          POLL_INTERVAL,
          PUBLISH_TIMEOUT,
          BACKOFF_INITIAL,
          BACKOFF_MAX,
          DEAD_LETTER_TOPIC);

  private CdcSettings() {}
}
