package dev.outboxrelay.daemon.monitoring;

import dev.outboxrelay.daemon.monitoring.MonitoringFiles.Query;
import dev.outboxrelay.daemon.monitoring.PromQl.Matcher;
import dev.outboxrelay.daemon.monitoring.PromQl.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks queries against a scrape: every metric they select is scraped, every label they match,
 * group by or print exists on it, and every literal value they match ({@code kind="publish"},
 * {@code phase=~"active|standby"}) occurs. Prometheus adds {@code job} and {@code instance} to
 * every series it scrapes and makes {@code up} itself, so those are taken as present.
 */
final class MetricCheck {
  private static final Set<String> TARGET_LABELS = Set.of("job", "instance");
  private static final Set<String> PROMETHEUS_SERIES = Set.of("up");

  private MetricCheck() {}

  /** What does not exist, one line each; empty when every query holds. */
  static List<String> problems(List<Query> queries, Scrape scrape) {
    List<String> problems = new ArrayList<>();
    for (Query q : queries) {
      PromQl.Uses uses = PromQl.parse(q.expr());
      if (uses.selectors().isEmpty()) {
        problems.add(q.where() + ": selects no metric: " + q.expr());
      }
      for (Selector s : uses.selectors()) {
        if (PROMETHEUS_SERIES.contains(s.metric())) {
          continue;
        }
        if (!scrape.names().contains(s.metric())) {
          problems.add(q.where() + ": no metric " + s.metric());
          continue;
        }
        Map<String, Set<String>> labels = scrape.labels(s.metric());
        for (Matcher m : s.matchers()) {
          check(problems, q.where(), s.metric(), m.label(), labels);
          if (!TARGET_LABELS.contains(m.label()) && labels.containsKey(m.label())) {
            for (String value : literals(m)) {
              if (!labels.get(m.label()).contains(value)) {
                problems.add(
                    q.where() + ": " + s.metric() + " has no " + m.label() + "=\"" + value + "\"");
              }
            }
          }
        }
        for (String label : uses.groupingLabels()) {
          check(problems, q.where(), s.metric(), label, labels);
        }
        for (String label : q.outputLabels()) {
          check(problems, q.where(), s.metric(), label, labels);
        }
      }
    }
    return problems;
  }

  private static void check(
      List<String> problems,
      String where,
      String metric,
      String label,
      Map<String, Set<String>> labels) {
    if (!TARGET_LABELS.contains(label) && !labels.containsKey(label)) {
      problems.add(
          where + ": " + metric + " has no label " + label + " (it has " + labels.keySet() + ")");
    }
  }

  /** The values a matcher names literally: none for a Grafana variable or a real regex. */
  private static List<String> literals(Matcher m) {
    if (m.value().contains("$")) {
      return List.of();
    }
    if (m.op().equals("=")) {
      return List.of(m.value());
    }
    if (m.op().equals("=~") && m.value().matches("[\\w.]+(\\|[\\w.]+)*")) {
      return List.of(m.value().split("\\|"));
    }
    return List.of();
  }
}
