package dev.outboxrelay.daemon.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.daemon.monitoring.MonitoringFiles.Alert;
import dev.outboxrelay.daemon.monitoring.MonitoringFiles.Query;
import dev.outboxrelay.micrometer.ReconcileMeters;
import dev.outboxrelay.micrometer.RelayMeters;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The dashboard and the rules without servers: they parse, cover what issue 23 asks for, every
 * query holds against the meters as {@code RelayService} binds them (the reconcile meters too)
 * (DashboardMetricsIT checks the same against a running daemon), and deploy/README.md documents
 * every alert with its duration.
 */
class MonitoringFilesTest {
  @Test
  void everyQueryHoldsAgainstTheRelayMetersOfAPollingAndACdcRelay() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    for (String mode : List.of("polling", "cdc")) {
      RelayMeters meters = new RelayMeters("r-" + mode, mode);
      meters.bindTo(registry);
      meters.onPublished(List.of(), Duration.ofMillis(3)); // the timer's quantiles
      meters.sampledState(RelayState.Phase.ACTIVE, true);
      new ReconcileMeters("r-" + mode, mode).bindTo(registry); // a relay with reconcile.enabled
    }
    List<Query> queries = MonitoringFiles.allQueries();
    assertThat(queries).hasSizeGreaterThan(15);
    assertThat(MetricCheck.problems(queries, Scrape.parse(registry.scrape()))).isEmpty();
  }

  @Test
  void aRenamedMetricOrAMissingLabelIsFound() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new RelayMeters("orders", "polling").bindTo(registry);
    Scrape scrape = Scrape.parse(registry.scrape());
    List<Query> wrong =
        List.of(
            new Query("a", "outbox_published{relay=\"x\"}", Set.of()),
            new Query("b", "sum by (topic) (outbox_backlog_messages)", Set.of()),
            new Query("c", "outbox_errors_total{kind=\"timeout\"}", Set.of()),
            new Query("d", "outbox_relay_phase{phase=~\"active|streaming\"}", Set.of("holder")));
    assertThat(MetricCheck.problems(wrong, scrape))
        .containsExactly(
            "a: no metric outbox_published",
            "b: outbox_backlog_messages has no label topic (it has [mode, relay])",
            "c: outbox_errors_total has no kind=\"timeout\"",
            "d: outbox_relay_phase has no phase=\"streaming\"",
            "d: outbox_relay_phase has no label holder (it has [mode, phase, relay])");
  }

  @Test
  void theDashboardShowsWhatTheIssueAsksFor() {
    String exprs =
        String.join("\n", MonitoringFiles.dashboardQueries().stream().map(Query::expr).toList());
    assertThat(exprs)
        .contains(
            "outbox_backlog_messages",
            "outbox_oldest_pending_age_seconds",
            "rate(outbox_published_total",
            "quantile=\"0.5\"",
            "quantile=\"0.99\"",
            "outbox_errors_total",
            "outbox_parked_keys",
            "outbox_owned_buckets",
            "outbox_relay_phase{mode=\"cdc\"",
            "outbox_relay_ready");
  }

  @Test
  void theRulesCoverTheIssuesAlertsAndTheReadmeDocumentsEach() throws Exception {
    List<Alert> alerts = MonitoringFiles.alerts();
    assertThat(alerts)
        .extracting(Alert::name)
        .containsExactly(
            "OutboxOldestPendingTooOld",
            "OutboxBacklogGrowing",
            "OutboxParkedKeys",
            "OutboxPublishErrors",
            "OutboxRelayNotReady",
            "OutboxCdcNoActiveReader",
            "OutboxReconcileMissing",
            "OutboxRelayDown");
    String readme = Files.readString(MonitoringFiles.ROOT.resolve("deploy/README.md"));
    for (Alert a : alerts) {
      assertThat(a.forDuration()).as(a.name()).isNotEmpty();
      assertThat(a.severity()).as(a.name()).isIn("warning", "critical");
      assertThat(readme)
          .as("deploy/README.md row of " + a.name())
          .containsPattern(
              "(?m)^\\| `" + a.name() + "` \\|.*\\| " + a.forDuration() + " \\| " + a.severity());
    }
  }
}
