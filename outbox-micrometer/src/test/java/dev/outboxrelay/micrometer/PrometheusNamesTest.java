package dev.outboxrelay.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** What a Prometheus scrape shows: the families {@link RelayMeter} names, each with a HELP text. */
class PrometheusNamesTest {
  private static final Pattern TYPE = Pattern.compile("(?m)^# TYPE (outbox_\\S+) \\S+$");
  private static final Pattern HELP = Pattern.compile("(?m)^# HELP (outbox_\\S+) ?(.*)$");

  @Test
  void theScrapeHasExactlyTheDocumentedFamiliesEachWithAHelpText() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RelayMeters meters = new RelayMeters("orders", "polling");
    meters.bindTo(registry);
    RelayMetersTest.driveOneOfEach(meters);
    String scrape = registry.scrape();

    Set<String> families = new TreeSet<>();
    for (Matcher m = TYPE.matcher(scrape); m.find(); ) {
      families.add(m.group(1));
    }
    Map<String, String> help = new HashMap<>();
    for (Matcher m = HELP.matcher(scrape); m.find(); ) {
      help.put(m.group(1), m.group(2).trim());
    }
    // The timer adds a _max gauge family.
    Set<String> expected =
        Stream.concat(
                Arrays.stream(RelayMeter.values()).map(RelayMeter::prometheusName),
                Stream.of(RelayMeter.PUBLISH_ACK.prometheusName() + "_max"))
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(families).isEqualTo(expected);
    for (String family : families) {
      assertThat(help.get(family)).as("HELP of " + family).isNotBlank();
    }
    assertThat(scrape)
        .contains("outbox_published_total{mode=\"polling\",relay=\"orders\"} 2.0")
        .contains("outbox_errors_total{kind=\"rejected\",mode=\"polling\",relay=\"orders\"} 1.0")
        .contains(
            "outbox_publish_ack_seconds{mode=\"polling\",relay=\"orders\",quantile=\"0.99\"}");
  }
}
