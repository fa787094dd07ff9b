package dev.outboxrelay.daemon.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.daemon.monitoring.PromQl.Matcher;
import dev.outboxrelay.daemon.monitoring.PromQl.Selector;
import dev.outboxrelay.daemon.monitoring.PromQl.Uses;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromQlTest {
  @Test
  void findsTheMetricItsMatchersAndTheGroupingOfAnAggregation() {
    Uses u =
        PromQl.parse(
            "sum by (relay, kind) (rate(outbox_errors_total{relay=~\"$relay\",kind=\"publish\"}"
                + "[$__rate_interval]))");
    assertThat(u.selectors())
        .containsExactly(
            new Selector(
                "outbox_errors_total",
                List.of(
                    new Matcher("relay", "=~", "$relay"), new Matcher("kind", "=", "publish"))));
    assertThat(u.groupingLabels()).containsExactlyInAnyOrder("relay", "kind");
  }

  @Test
  void bareMetricsOnBothSidesOfABinaryOperatorWithAGroupingAfterTheParenthesis() {
    Uses u =
        PromQl.parse(
            "max(deriv(outbox_backlog_messages[10m])) by (relay) > 0\n"
                + "and on (relay) max without (instance) (outbox_backlog_messages offset 5m) > 1e3");
    assertThat(u.selectors())
        .extracting(Selector::metric)
        .containsExactly("outbox_backlog_messages", "outbox_backlog_messages");
    assertThat(u.groupingLabels()).containsExactlyInAnyOrder("relay", "instance");
  }

  @Test
  void readsQuotedValuesWithEscapesAndTheNameLabel() {
    Uses u = PromQl.parse("{__name__=\"up\", job='outbox\\'s', instance!~\"a|b\"} == 0");
    assertThat(u.selectors())
        .containsExactly(
            new Selector(
                "up",
                List.of(
                    new Matcher("job", "=", "outbox's"), new Matcher("instance", "!~", "a|b"))));
  }

  @Test
  void functionsKeywordsNumbersAndStringsOutsideSelectorsAreNoMetrics() {
    Uses u =
        PromQl.parse(
            "histogram_quantile(0.99, sum by (le) (rate(x_bucket[5m]))) > bool 0.5 "
                + "or vector(1) unless label_replace(y, \"dst\", \"$1\", \"src\", \"(.*)\")");
    assertThat(u.selectors()).extracting(Selector::metric).containsExactly("x_bucket", "y");
  }

  @Test
  void anUnclosedRangeIsAnError() {
    assertThatThrownBy(() -> PromQl.parse("rate(x[5m)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("']' expected");
  }
}
