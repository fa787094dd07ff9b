package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Micrometer meters of the embedded relay and of dedup. Spring Boot binds it to the application's
 * {@link MeterRegistry}; callbacks before that are not counted. Thread-safe.
 *
 * <ul>
 *   <li>{@code outbox.relay.published}, {@code outbox.relay.retried}, {@code outbox.relay.parked},
 *       {@code outbox.relay.errors} (counters), {@code outbox.relay.publish.latency} (timer of one
 *       batch's publish to acknowledgement);
 *   <li>{@code outbox.relay.backlog} (gauge: rows not yet published, one COUNT per scrape), {@code
 *       outbox.relay.oldest.age} (gauge, seconds, from the last claim);
 *   <li>{@code outbox.dedup.outcomes} (counter, tags {@code group}, {@code outcome}: processed,
 *       duplicate, stale, failed).
 * </ul>
 */
public final class OutboxMeters implements RelayListener, DedupListener, MeterBinder {
  private final LongSupplier backlog;
  private final AtomicLong oldestAgeMillis = new AtomicLong();
  private volatile MeterRegistry registry;
  private volatile Counter published;
  private volatile Counter retried;
  private volatile Counter parked;
  private volatile Counter errors;
  private volatile Timer latency;

  /**
   * @param backlog counts the pending rows; called at each scrape
   */
  public OutboxMeters(LongSupplier backlog) {
    this.backlog = backlog;
  }

  @Override
  public void bindTo(MeterRegistry r) {
    published = r.counter("outbox.relay.published");
    retried = r.counter("outbox.relay.retried");
    parked = r.counter("outbox.relay.parked");
    errors = r.counter("outbox.relay.errors");
    latency = r.timer("outbox.relay.publish.latency");
    Gauge.builder("outbox.relay.backlog", this, m -> m.backlogOrNaN())
        .description("outbox rows not yet published")
        .register(r);
    Gauge.builder("outbox.relay.oldest.age", oldestAgeMillis, a -> a.get() / 1000.0)
        .baseUnit("seconds")
        .register(r);
    registry = r;
  }

  private double backlogOrNaN() {
    try {
      return backlog.getAsLong();
    } catch (RuntimeException e) {
      return Double.NaN;
    }
  }

  @Override
  public void onClaimed(int claimed, Duration oldestAge) {
    oldestAgeMillis.set(claimed == 0 || oldestAge == null ? 0 : oldestAge.toMillis());
  }

  @Override
  public void onPublished(List<OutboxMessage> messages, Duration publishLatency) {
    if (published != null) {
      published.increment(messages.size());
      latency.record(publishLatency);
    }
  }

  @Override
  public void onRetry(OutboxMessage message, PublishException failure, int attempt, Duration d) {
    increment(retried);
  }

  @Override
  public void onParked(String aggregateId, OutboxMessage message, String reason) {
    increment(parked);
  }

  @Override
  public void onError(Exception error, Duration delay) {
    increment(errors);
  }

  @Override
  public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
    dedup(group, outcome.name().toLowerCase(java.util.Locale.ROOT));
  }

  @Override
  public void onFailure(String group, MessageIdentity message, Exception failure) {
    dedup(group, "failed");
  }

  private void dedup(String group, String outcome) {
    MeterRegistry r = registry;
    if (r != null) {
      r.counter("outbox.dedup.outcomes", "group", group, "outcome", outcome).increment();
    }
  }

  private static void increment(Counter c) {
    if (c != null) {
      c.increment();
    }
  }
}
