package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxConfigException;
import java.time.Duration;
import java.util.Objects;

/** Builds a {@link Dedup}; every setting is validated when set. Not thread-safe. */
public final class DedupBuilder {
  DedupStore store;
  String group;
  boolean highWaterMark;
  int maxAttempts = 5;
  Duration backoffInitial = Duration.ofMillis(20);
  Duration backoffMax = Duration.ofSeconds(1);
  DedupListener listener = new DedupListener() {};
  Object
      openTelemetry; // an io.opentelemetry.api.OpenTelemetry: Object, so this class loads without

  DedupBuilder() {}

  /** Where message ids are recorded. Required. */
  public DedupBuilder store(DedupStore store) {
    this.store = Objects.requireNonNull(store, "store");
    return this;
  }

  /**
   * The consumer group: ids are unique per group, so two groups each process every message.
   * Required; usually the broker's consumer group name.
   *
   * @throws OutboxConfigException if blank or over 255 characters
   */
  public DedupBuilder group(String group) {
    if (group == null || group.isBlank() || group.length() > MessageIdentity.MAX_KEY) {
      throw new OutboxConfigException("group", group, "must be 1 to 255 characters, not blank");
    }
    this.group = group;
    return this;
  }

  /**
   * Keeps the highest {@code seq} applied per key and skips older messages of the key forever, even
   * after their dedup records are purged. Only for consumers that see each key in order (a Kafka
   * partition, a RocketMQ orderly listener). Default {@code false}.
   */
  public DedupBuilder highWaterMark(boolean enabled) {
    this.highWaterMark = enabled;
    return this;
  }

  /**
   * Attempts in all when the transaction hits a deadlock or serialization failure. Default 5.
   *
   * @throws OutboxConfigException unless 1–100
   */
  public DedupBuilder maxAttempts(int maxAttempts) {
    if (maxAttempts < 1 || maxAttempts > 100) {
      throw new OutboxConfigException("maxAttempts", maxAttempts, "must be between 1 and 100");
    }
    this.maxAttempts = maxAttempts;
    return this;
  }

  /**
   * Backoff before retrying a rolled-back transaction: doubles from {@code initial} up to {@code
   * max}, with jitter. Default 20 ms up to 1 s.
   *
   * @throws OutboxConfigException unless {@code 0 < initial <= max <= 1 min}
   */
  public DedupBuilder backoff(Duration initial, Duration max) {
    requirePositive("backoffInitial", initial);
    requirePositive("backoffMax", max);
    if (max.compareTo(initial) < 0 || max.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new OutboxConfigException(
          "backoffMax", max, "must be between backoffInitial (" + initial + ") and PT1M");
    }
    this.backoffInitial = initial;
    this.backoffMax = max;
    return this;
  }

  /** Callbacks for metrics. Default: none. */
  public DedupBuilder listener(DedupListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * The OpenTelemetry whose tracer makes the consumer spans of the Kafka and RocketMQ adapters (see
   * the README's "Trace context"). Needs {@code io.opentelemetry:opentelemetry-api} on the
   * classpath. Default: {@code GlobalOpenTelemetry}, looked up at the first span; without the API
   * on the classpath, no spans.
   */
  public DedupBuilder openTelemetry(io.opentelemetry.api.OpenTelemetry openTelemetry) {
    this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
    return this;
  }

  /**
   * @throws OutboxConfigException if store or group is missing
   */
  public Dedup build() {
    if (store == null) {
      throw new OutboxConfigException("store", null, "is required");
    }
    if (group == null) {
      throw new OutboxConfigException("group", null, "is required");
    }
    return new Dedup(this);
  }

  static void requirePositive(String key, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new OutboxConfigException(key, value, "must be positive");
    }
  }
}
