package dev.outboxrelay.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The reconciliation meters: the families {@link ReconcileMeter} names, moved by each run. */
class ReconcileMetersTest {
  private static final Pattern TYPE = Pattern.compile("(?m)^# TYPE (outbox_\\S+) \\S+$");

  @Test
  void eachRunMovesItsMetersUnderTheDeclaredNames() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    ReconcileMeters meters = new ReconcileMeters("orders", "polling");
    meters.bindTo(registry);
    meters.bindTo(registry); // harmless
    meters.completed(10, 2, 1, Duration.ofMillis(40), Instant.ofEpochSecond(1_800_000_000));
    meters.completed(5, 0, 0, Duration.ofMillis(20), Instant.ofEpochSecond(1_800_000_060));
    meters.failed();
    String scrape = registry.scrape();

    Set<String> families = new TreeSet<>();
    for (Matcher m = TYPE.matcher(scrape); m.find(); ) {
      families.add(m.group(1));
    }
    assertThat(families)
        .isEqualTo(
            Stream.concat(
                    Arrays.stream(ReconcileMeter.values()).map(ReconcileMeter::prometheusName),
                    Stream.of(ReconcileMeter.RUN.prometheusName() + "_max"))
                .collect(Collectors.toCollection(TreeSet::new)));
    String tags = "{mode=\"polling\",relay=\"orders\"}";
    assertThat(scrape)
        .contains("outbox_reconcile_checked_total" + tags + " 15.0")
        .contains("outbox_reconcile_missing_total" + tags + " 2.0")
        .contains("outbox_reconcile_republished_total" + tags + " 1.0")
        .contains("outbox_reconcile_failures_total" + tags + " 1.0")
        .contains("outbox_reconcile_last_missing" + tags + " 0.0")
        .contains("outbox_reconcile_last_success_timestamp_seconds" + tags + " 1.80000006E9")
        .contains("outbox_reconcile_run_seconds_count" + tags + " 2");
    assertThat(meters.counts()).containsExactly(15, 2, 1, 1);
  }
}
