package dev.outboxrelay.daemon.monitoring;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@code /metrics} answer in Prometheus' text format, read as: per sample name (such as {@code
 * outbox_publish_ack_seconds_count}), per label, the values seen. Comment lines are skipped.
 */
final class Scrape {
  private final Map<String, Map<String, Set<String>>> samples = new TreeMap<>();

  private Scrape() {}

  static Scrape parse(String text) {
    Scrape s = new Scrape();
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        s.sample(line.strip());
      }
    }
    return s;
  }

  private void sample(String line) {
    int brace = line.indexOf('{');
    int space = line.indexOf(' ');
    String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
    Map<String, Set<String>> labels = samples.computeIfAbsent(name, k -> new TreeMap<>());
    if (brace >= 0 && brace < space) {
      labels(line, brace + 1)
          .forEach((k, v) -> labels.computeIfAbsent(k, x -> new TreeSet<>()).add(v));
    }
  }

  /** The {@code name="value"} pairs from {@code from} to the closing brace; values unescaped. */
  private static Map<String, String> labels(String line, int from) {
    Map<String, String> out = new LinkedHashMap<>();
    int i = from;
    while (line.charAt(i) != '}') {
      int eq = line.indexOf('=', i);
      String label = line.substring(i, eq).strip();
      StringBuilder value = new StringBuilder();
      for (i = eq + 2; line.charAt(i) != '"'; i++) {
        if (line.charAt(i) == '\\') {
          i++;
          value.append(line.charAt(i) == 'n' ? '\n' : line.charAt(i));
        } else {
          value.append(line.charAt(i));
        }
      }
      out.put(label, value.toString());
      i++;
      if (line.charAt(i) == ',') {
        i++;
      }
    }
    return out;
  }

  Set<String> names() {
    return samples.keySet();
  }

  /** The labels of the samples of that name, with the values each takes; empty if none. */
  Map<String, Set<String>> labels(String name) {
    return samples.getOrDefault(name, Map.of());
  }
}
