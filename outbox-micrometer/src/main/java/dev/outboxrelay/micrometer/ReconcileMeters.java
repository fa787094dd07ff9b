package dev.outboxrelay.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The meters of one relay's reconciliation loop ({@link ReconcileMeter} lists them), fed by the
 * loop after each run. Like {@link RelayMeters}: state is held here, so one instance may be bound
 * to several registries; the run timer records only once bound. Thread-safe.
 */
public final class ReconcileMeters implements MeterBinder {
  private final Tags tags;
  private final LongAdder checked = new LongAdder();
  private final LongAdder missing = new LongAdder();
  private final LongAdder republished = new LongAdder();
  private final LongAdder failures = new LongAdder();
  private final AtomicLong lastSuccessMillis = new AtomicLong();
  private final AtomicLong lastMissing = new AtomicLong();
  private final CopyOnWriteArrayList<Timer> runs = new CopyOnWriteArrayList<>();

  /**
   * @param relay the relay's name, the {@code relay} tag
   * @param mode {@code polling} or {@code cdc}, the {@code mode} tag
   */
  public ReconcileMeters(String relay, String mode) {
    this.tags =
        Tags.of(
            "relay", Objects.requireNonNull(relay, "relay"),
            "mode", Objects.requireNonNull(mode, "mode"));
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    counter(registry, ReconcileMeter.CHECKED, checked);
    counter(registry, ReconcileMeter.MISSING, missing);
    counter(registry, ReconcileMeter.REPUBLISHED, republished);
    counter(registry, ReconcileMeter.FAILURES, failures);
    Timer timer =
        Timer.builder(ReconcileMeter.RUN.meterName())
            .description(ReconcileMeter.RUN.description())
            .publishPercentiles(0.5, 0.99)
            .tags(tags)
            .register(registry);
    if (runs.stream().noneMatch(t -> t == timer)) {
      runs.add(timer);
    }
    Gauge.builder(ReconcileMeter.LAST_SUCCESS.meterName(), lastSuccessMillis, m -> m.get() / 1000.0)
        .description(ReconcileMeter.LAST_SUCCESS.description())
        .tags(tags)
        .strongReference(true)
        .register(registry);
    Gauge.builder(ReconcileMeter.LAST_MISSING.meterName(), lastMissing, AtomicLong::get)
        .description(ReconcileMeter.LAST_MISSING.description())
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  private void counter(MeterRegistry registry, ReconcileMeter meter, LongAdder count) {
    FunctionCounter.builder(meter.meterName(), count, LongAdder::doubleValue)
        .description(meter.description())
        .tags(tags)
        .register(registry);
  }

  /**
   * A completed run: how many rows it looked for, how many of them were missing, how many of those
   * it republished (acknowledged), how long it took and when it ended.
   */
  public void completed(
      long checkedRows, long missingRows, long republishedRows, Duration took, Instant at) {
    checked.add(checkedRows);
    missing.add(missingRows);
    republished.add(republishedRows);
    lastMissing.set(missingRows);
    lastSuccessMillis.set(at.toEpochMilli());
    for (Timer t : runs) {
      t.record(took);
    }
  }

  /** A run that failed before it could tell what was missing. */
  public void failed() {
    failures.increment();
  }

  /** Counters so far: checked, missing, republished, failures (for tests and log lines). */
  public long[] counts() {
    return new long[] {checked.sum(), missing.sum(), republished.sum(), failures.sum()};
  }
}
