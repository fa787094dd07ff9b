package dev.outboxrelay.daemon.monitoring;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The metric names and labels a PromQL expression refers to: enough of PromQL to check a dashboard
 * or an alert rule against a scrape, not an evaluator. A name followed by {@code (} is a function
 * or aggregation; other names that are not keywords are metrics, with their label matchers; the
 * labels of {@code by}, {@code without}, {@code on}, {@code ignoring} and the group modifiers are
 * grouping labels. Range and subquery brackets, strings outside selectors, numbers and Grafana
 * variables ({@code $__rate_interval}) are skipped.
 */
final class PromQl {
  private static final Set<String> KEYWORDS =
      Set.of("and", "or", "unless", "bool", "offset", "inf", "nan", "atan2");
  private static final Set<String> AGGREGATIONS =
      Set.of(
          "sum",
          "min",
          "max",
          "avg",
          "group",
          "stddev",
          "stdvar",
          "count",
          "count_values",
          "bottomk",
          "topk",
          "quantile");
  private static final Set<String> GROUPING =
      Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

  /** A matcher {@code label op value}; {@code op} is one of {@code = != =~ !~}. */
  record Matcher(String label, String op, String value) {}

  /** One vector selector: the metric's name and its matchers. */
  record Selector(String metric, List<Matcher> matchers) {}

  /** What an expression uses. */
  record Uses(List<Selector> selectors, Set<String> groupingLabels) {}

  private final String q;
  private int i;
  private final List<Selector> selectors = new ArrayList<>();
  private final Set<String> grouping = new LinkedHashSet<>();

  private PromQl(String expr) {
    this.q = expr;
  }

  static Uses parse(String expr) {
    PromQl p = new PromQl(expr);
    p.run();
    return new Uses(List.copyOf(p.selectors), Set.copyOf(p.grouping));
  }

  private void run() {
    while (skipSpace() < q.length()) {
      char c = q.charAt(i);
      if (c == '[') {
        skipPast(']');
      } else if (c == '"' || c == '\'' || c == '`') {
        string();
      } else if (c == '{') {
        selector("");
      } else if (c == '$') {
        i++;
        name();
      } else if (Character.isLetter(c) || c == '_' || c == ':') {
        word();
      } else if (Character.isDigit(c) || c == '.') {
        while (i < q.length() && (Character.isLetterOrDigit(q.charAt(i)) || q.charAt(i) == '.')) {
          i++; // numbers and durations, such as 0.99, 5m, 1e3
        }
      } else {
        i++;
      }
    }
  }

  private void word() {
    String word = name();
    String lower = word.toLowerCase(Locale.ROOT);
    int after = skipSpace();
    if (GROUPING.contains(lower)) {
      if (after < q.length() && q.charAt(after) == '(') {
        i = after + 1;
        for (String label : q.substring(i, q.indexOf(')', i)).split(",")) {
          if (!label.isBlank()) {
            grouping.add(label.strip());
          }
        }
        skipPast(')');
      }
    } else if (KEYWORDS.contains(lower) || AGGREGATIONS.contains(lower)) {
      return; // an aggregation may have its grouping before its parenthesis: sum by (a) (...)
    } else if (after < q.length() && q.charAt(after) == '(') {
      return; // a function or an aggregation
    } else if (after < q.length() && q.charAt(after) == '{') {
      selector(word);
    } else {
      selectors.add(new Selector(word, List.of()));
    }
  }

  private void selector(String metric) {
    skipPast('{');
    List<Matcher> matchers = new ArrayList<>();
    String name = metric;
    while (skipSpace() < q.length() && q.charAt(i) != '}') {
      if (q.charAt(i) == ',') {
        i++;
        continue;
      }
      String label = name();
      skipSpace();
      int start = i;
      while ("=!~".indexOf(q.charAt(i)) >= 0) {
        i++;
      }
      String op = q.substring(start, i);
      skipSpace();
      String value = string();
      if (label.equals("__name__") && op.equals("=")) {
        name = value;
      } else {
        matchers.add(new Matcher(label, op, value));
      }
    }
    i++;
    if (name.isEmpty()) {
      throw new IllegalArgumentException("selector without a metric name in: " + q);
    }
    selectors.add(new Selector(name, List.copyOf(matchers)));
  }

  private String name() {
    int start = i;
    while (i < q.length()
        && (Character.isLetterOrDigit(q.charAt(i)) || "_:".indexOf(q.charAt(i)) >= 0)) {
      i++;
    }
    if (start == i) {
      throw new IllegalArgumentException("a name expected at " + i + " in: " + q);
    }
    return q.substring(start, i);
  }

  private String string() {
    char quote = q.charAt(i);
    StringBuilder b = new StringBuilder();
    for (i++; q.charAt(i) != quote; i++) {
      if (q.charAt(i) == '\\' && quote != '`') {
        i++;
      }
      b.append(q.charAt(i));
    }
    i++;
    return b.toString();
  }

  private void skipPast(char c) {
    int at = q.indexOf(c, i);
    if (at < 0) {
      throw new IllegalArgumentException("'" + c + "' expected after " + i + " in: " + q);
    }
    i = at + 1;
  }

  private int skipSpace() {
    while (i < q.length() && Character.isWhitespace(q.charAt(i))) {
      i++;
    }
    return i;
  }
}
