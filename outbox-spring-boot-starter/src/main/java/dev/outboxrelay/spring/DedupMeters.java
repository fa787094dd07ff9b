package dev.outboxrelay.spring;

import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;

/**
 * The dedup meter: {@code outbox.dedup.outcomes} (counter, Prometheus {@code
 * outbox_dedup_outcomes_total}), tags {@code group} and {@code outcome}: {@code processed}, {@code
 * duplicate}, {@code stale}, {@code failed}. Spring Boot binds it to the application's {@link
 * MeterRegistry}; outcomes before that are not counted. The relay's meters are {@code
 * dev.outboxrelay.micrometer.RelayMeters}. Thread-safe.
 */
public final class DedupMeters implements DedupListener, MeterBinder {
  /** The meter's name. */
  public static final String OUTCOMES = "outbox.dedup.outcomes";

  private volatile MeterRegistry registry;

  @Override
  public void bindTo(MeterRegistry r) {
    registry = r;
  }

  @Override
  public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
    count(group, outcome.name().toLowerCase(Locale.ROOT));
  }

  @Override
  public void onFailure(String group, MessageIdentity message, Exception failure) {
    count(group, "failed");
  }

  private void count(String group, String outcome) {
    MeterRegistry r = registry;
    if (r != null) {
      Counter.builder(OUTCOMES)
          .description("Consumed messages by dedup outcome")
          .tags("group", group, "outcome", outcome)
          .register(r)
          .increment();
    }
  }
}
