package dev.outboxrelay.daemon;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RelayListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A relay's Micrometer meters, fed by its {@link RelayListener} callbacks. Backlog, oldest pending
 * age and parked keys are sampled from the table by {@link RelayService} (never on the scrape
 * thread).
 *
 * <p>Prometheus names: {@code outbox_published_total}, {@code outbox_retries_total}, {@code
 * outbox_parked_total}, {@code outbox_fenced_marks_total}, {@code outbox_errors_total} (tag {@code
 * kind}: {@code publish}, {@code rejected}, {@code database}), {@code outbox_publish_ack_seconds}
 * (publish call → broker ack, per batch), {@code outbox_backlog_messages}, {@code
 * outbox_oldest_pending_age_seconds}, {@code outbox_parked_keys}, {@code outbox_owned_buckets},
 * {@code outbox_relay_lag_seconds} (row created → acked, the CDC lag for CDC relays), all tagged
 * {@code relay} and {@code mode}.
 */
final class RelayMetrics implements RelayListener {
  private final Counter published;
  private final Counter retries;
  private final Counter parked;
  private final Counter fenced;
  private final Counter publishErrors;
  private final Counter rejectedErrors;
  private final Counter databaseErrors;
  private final Timer publishAck;
  private final AtomicInteger ownedBuckets = new AtomicInteger();
  private final AtomicLong lagMillis = new AtomicLong();
  final AtomicLong backlog = new AtomicLong();
  final AtomicLong oldestPendingMillis = new AtomicLong();
  final AtomicInteger parkedKeys = new AtomicInteger();

  RelayMetrics(MeterRegistry registry, String relay, String mode) {
    Tags tags = Tags.of("relay", relay, "mode", mode);
    published =
        Counter.builder("outbox.published")
            .description("Messages acknowledged by the broker and marked done")
            .tags(tags)
            .register(registry);
    retries =
        Counter.builder("outbox.retries")
            .description("Publish attempts that failed retriably and were scheduled again")
            .tags(tags)
            .register(registry);
    parked =
        Counter.builder("outbox.parked")
            .description("Messages that failed non-retriably and parked their key")
            .tags(tags)
            .register(registry);
    fenced =
        Counter.builder("outbox.fenced.marks")
            .description("Marks refused because the lease was lost")
            .tags(tags)
            .register(registry);
    // kind: publish (retriable broker failure), rejected (non-retriable, parks the key), database
    publishErrors = errors(registry, tags, "publish");
    rejectedErrors = errors(registry, tags, "rejected");
    databaseErrors = errors(registry, tags, "database");
    publishAck =
        Timer.builder("outbox.publish.ack")
            .description("Publish call to broker acknowledgement, per batch")
            .publishPercentiles(0.5, 0.99)
            .tags(tags)
            .register(registry);
    gauge(registry, "outbox.owned.buckets", "Key buckets whose lease this relay holds", tags)
        .register(ownedBuckets, AtomicInteger::get);
    gauge(registry, "outbox.backlog.messages", "Rows pending publication (sampled)", tags)
        .register(backlog, AtomicLong::get);
    gauge(
            registry,
            "outbox.oldest.pending.age.seconds",
            "Age of the oldest pending row (sampled)",
            tags)
        .register(oldestPendingMillis, m -> m.get() / 1000.0);
    gauge(registry, "outbox.parked.keys", "Keys parked awaiting an operator (sampled)", tags)
        .register(parkedKeys, AtomicInteger::get);
    gauge(
            registry,
            "outbox.relay.lag.seconds",
            "Row creation to broker acknowledgement of the last published batch",
            tags)
        .register(lagMillis, m -> m.get() / 1000.0);
  }

  /** A gauge registration: {@code register(state, valueFunction)}. */
  private static GaugeSpec gauge(
      MeterRegistry registry, String name, String description, Tags tags) {
    return new GaugeSpec(registry, name, description, tags);
  }

  private record GaugeSpec(MeterRegistry registry, String name, String description, Tags tags) {
    <T> void register(T state, java.util.function.ToDoubleFunction<T> value) {
      Gauge.builder(name, state, value).description(description).tags(tags).register(registry);
    }
  }

  @Override
  public void onPublished(List<OutboxMessage> messages, Duration publishLatency) {
    published.increment(messages.size());
    publishAck.record(publishLatency.toNanos(), TimeUnit.NANOSECONDS);
    if (!messages.isEmpty()) {
      messages
          .get(messages.size() - 1)
          .createdAt()
          .ifPresent(
              created ->
                  lagMillis.set(Math.max(0, Duration.between(created, Instant.now()).toMillis())));
    }
  }

  @Override
  public void onRetry(
      OutboxMessage message, PublishException failure, int attempt, Duration delay) {
    retries.increment();
    publishErrors.increment();
  }

  @Override
  public void onParked(String aggregateId, OutboxMessage message, String reason) {
    parked.increment();
    rejectedErrors.increment();
  }

  @Override
  public void onFenced(int refusedMarks) {
    fenced.increment(refusedMarks);
  }

  @Override
  public void onLeasesChanged(Set<Integer> buckets) {
    ownedBuckets.set(buckets.size());
  }

  @Override
  public void onError(Exception error, Duration delay) {
    databaseErrors.increment();
  }

  private static Counter errors(MeterRegistry registry, Tags tags, String kind) {
    return Counter.builder("outbox.errors")
        .description(
            "Relay failures by kind: publish (retriable broker failure, backed off), rejected"
                + " (non-retriable, the key was parked), database (backed off)")
        .tags(tags)
        .tag("kind", kind)
        .register(registry);
  }

  double publishedCount() {
    return published.count();
  }
}
