package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.micrometer.RelayMeters;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The daemon's scrape, with the relay meters bound as {@code RelayService} binds them: the names
 * dashboards use (pinned here literally, so a rename in outbox-micrometer fails the daemon's build
 * too), each with a HELP text.
 */
class RelayMetricsTest {
  private static final Pattern TYPE = Pattern.compile("(?m)^# TYPE (outbox_\\S+) \\S+$");
  private static final Pattern HELP = Pattern.compile("(?m)^# HELP (outbox_\\S+) ?(.*)$");

  @Test
  void everyOutboxFamilyHasAHelpText() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new RelayMeters("orders", "polling").bindTo(registry);
    String scrape = registry.scrape();

    TreeSet<String> families = new TreeSet<>();
    for (Matcher m = TYPE.matcher(scrape); m.find(); ) {
      families.add(m.group(1));
    }
    Map<String, String> help = new HashMap<>();
    for (Matcher m = HELP.matcher(scrape); m.find(); ) {
      help.put(m.group(1), m.group(2).trim());
    }
    // The thirteen meters of the README, and the timer's _max family.
    assertThat(families)
        .contains(
            "outbox_published_total",
            "outbox_retries_total",
            "outbox_parked_total",
            "outbox_fenced_marks_total",
            "outbox_errors_total",
            "outbox_publish_ack_seconds",
            "outbox_publish_ack_seconds_max",
            "outbox_backlog_messages",
            "outbox_oldest_pending_age_seconds",
            "outbox_parked_keys",
            "outbox_owned_buckets",
            "outbox_relay_lag_seconds",
            "outbox_relay_phase",
            "outbox_relay_ready");
    for (String family : families) {
      assertThat(help.get(family)).as("HELP of " + family).isNotBlank();
    }
  }
}
