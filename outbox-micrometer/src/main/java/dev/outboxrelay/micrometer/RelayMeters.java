package dev.outboxrelay.micrometer;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.core.RelayState;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;

/**
 * The Micrometer meters of one relay ({@link RelayMeter} lists them), fed by its {@link
 * RelayListener} callbacks and by {@link #sampled}. Pass it to the relay's builder as its listener
 * and bind it to a registry; the daemon and the Spring Boot starter both do exactly that, so a
 * dashboard built for one works for the other.
 *
 * <p>Counters and gauges read state held here, so callbacks before {@link #bindTo} are counted and
 * one instance can be bound to several registries; the publish timer records only once bound. The
 * backlog, oldest pending age and parked keys come from the table, which this class does not query:
 * the owner samples them off the scrape thread and calls {@link #sampled}; the relay's phase and
 * readiness likewise through {@link #sampledState}. Thread-safe.
 */
public final class RelayMeters implements RelayListener, MeterBinder {
  private final Tags tags;
  private final LongAdder published = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder parked = new LongAdder();
  private final LongAdder fenced = new LongAdder();
  private final LongAdder deadLettered = new LongAdder();
  private final LongAdder deadLetterFailures = new LongAdder();
  private final LongAdder databaseErrors = new LongAdder();
  private final AtomicLong ownedBuckets = new AtomicLong();
  private final AtomicLong lagMillis = new AtomicLong();
  private final AtomicLong backlog = new AtomicLong();
  private final AtomicLong oldestPendingMillis = new AtomicLong();
  private final AtomicLong parkedKeys = new AtomicLong();
  private volatile RelayState.Phase phase = RelayState.Phase.NEW;
  private volatile boolean ready;
  private final CopyOnWriteArrayList<Timer> publishAck = new CopyOnWriteArrayList<>();
  private volatile boolean bound;

  /**
   * @param relay the relay's name, the {@code relay} tag: two relays in one registry stay apart
   * @param mode {@code polling} or {@code cdc}, the {@code mode} tag
   */
  public RelayMeters(String relay, String mode) {
    this.tags =
        Tags.of(
            "relay", Objects.requireNonNull(relay, "relay"),
            "mode", Objects.requireNonNull(mode, "mode"));
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    bound = true;
    counter(registry, RelayMeter.PUBLISHED, Tags.empty(), published);
    counter(registry, RelayMeter.RETRIES, Tags.empty(), retries);
    counter(registry, RelayMeter.PARKED, Tags.empty(), parked);
    counter(registry, RelayMeter.FENCED_MARKS, Tags.empty(), fenced);
    counter(registry, RelayMeter.DEAD_LETTER_SENT, Tags.empty(), deadLettered);
    counter(registry, RelayMeter.DEAD_LETTER_FAILURES, Tags.empty(), deadLetterFailures);
    // A retry is a retriable publish failure and a park a rejected message: one count, two views.
    counter(registry, RelayMeter.ERRORS, Tags.of("kind", "publish"), retries);
    counter(registry, RelayMeter.ERRORS, Tags.of("kind", "rejected"), parked);
    counter(registry, RelayMeter.ERRORS, Tags.of("kind", "database"), databaseErrors);
    Timer timer =
        Timer.builder(RelayMeter.PUBLISH_ACK.meterName())
            .description(RelayMeter.PUBLISH_ACK.description())
            .publishPercentiles(0.5, 0.99)
            .tags(tags)
            .register(registry);
    // Bound twice to one registry, we get the same timer back: record into it once. Identity, as
    // meters with the same id in two registries are equal.
    if (publishAck.stream().noneMatch(t -> t == timer)) {
      publishAck.add(timer);
    }
    gauge(registry, RelayMeter.OWNED_BUCKETS, ownedBuckets, AtomicLong::get);
    gauge(registry, RelayMeter.BACKLOG, backlog, AtomicLong::get);
    gauge(registry, RelayMeter.OLDEST_PENDING_AGE, oldestPendingMillis, RelayMeters::seconds);
    gauge(registry, RelayMeter.PARKED_KEYS, parkedKeys, AtomicLong::get);
    gauge(registry, RelayMeter.RELAY_LAG, lagMillis, RelayMeters::seconds);
    // A state set: one series per phase, so a dashboard or alert selects {phase="active"} and
    // sums or maxes across instances without decoding a number.
    for (RelayState.Phase p : RelayState.Phase.values()) {
      Gauge.builder(RelayMeter.PHASE.meterName(), this, m -> m.phase == p ? 1 : 0)
          .description(RelayMeter.PHASE.description())
          .tags(tags)
          .tag("phase", p.name().toLowerCase(Locale.ROOT))
          .strongReference(true)
          .register(registry);
    }
    Gauge.builder(RelayMeter.READY.meterName(), this, m -> m.ready ? 1 : 0)
        .description(RelayMeter.READY.description())
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  private void counter(MeterRegistry registry, RelayMeter meter, Tags extra, LongAdder count) {
    FunctionCounter.builder(meter.meterName(), count, LongAdder::doubleValue)
        .description(meter.description())
        .tags(tags)
        .tags(extra)
        .register(registry);
  }

  private <T> void gauge(
      MeterRegistry registry, RelayMeter meter, T state, ToDoubleFunction<T> value) {
    Gauge.builder(meter.meterName(), state, value)
        .description(meter.description())
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  private static double seconds(AtomicLong millis) {
    return millis.get() / 1000.0;
  }

  /**
   * What the owner read from the table: rows pending publication, the age of the oldest one (zero
   * when none) and the number of parked keys.
   */
  public void sampled(long pending, Duration oldestPending, int parkedKeyCount) {
    backlog.set(pending);
    oldestPendingMillis.set(oldestPending.toMillis());
    parkedKeys.set(parkedKeyCount);
  }

  /**
   * What the owner last read from the relay: its phase ({@code Relay.state().phase()}) and whether
   * it reports ready (the daemon's {@code /health/ready} for this relay, the starter's health
   * contributor UP). Until the first call: {@code NEW}, not ready.
   */
  public void sampledState(RelayState.Phase current, boolean isReady) {
    phase = Objects.requireNonNull(current, "current");
    ready = isReady;
  }

  /** Whether {@link #bindTo} ran: until then nothing exports the sampled gauges. */
  public boolean isBound() {
    return bound;
  }

  /** Messages acknowledged and marked done since this instance was created. */
  public long publishedCount() {
    return published.sum();
  }

  @Override
  public void onPublished(List<OutboxMessage> messages, Duration publishLatency) {
    published.add(messages.size());
    for (Timer t : publishAck) {
      t.record(publishLatency.toNanos(), TimeUnit.NANOSECONDS);
    }
    if (!messages.isEmpty()) {
      messages
          .get(messages.size() - 1)
          .createdAt()
          .ifPresent(
              c -> lagMillis.set(Math.max(0, Duration.between(c, Instant.now()).toMillis())));
    }
  }

  @Override
  public void onRetry(OutboxMessage message, PublishException failure, int attempt, Duration d) {
    retries.increment();
  }

  @Override
  public void onParked(String aggregateId, OutboxMessage message, String reason) {
    parked.increment();
  }

  @Override
  public void onDeadLettered(String aggregateId, OutboxMessage message, String topic) {
    deadLettered.increment();
  }

  @Override
  public void onDeadLetterFailed(
      String aggregateId, PublishException failure, int attempt, Duration delay) {
    deadLetterFailures.increment();
  }

  @Override
  public void onFenced(int refusedMarks) {
    fenced.add(refusedMarks);
  }

  @Override
  public void onLeasesChanged(Set<Integer> buckets) {
    ownedBuckets.set(buckets.size());
  }

  @Override
  public void onError(Exception error, Duration delay) {
    databaseErrors.increment();
  }
}
