package dev.outboxrelay.daemon.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The queries of the Grafana dashboard ({@code deploy/grafana/outbox-relay.json}, read with
 * Jackson) and of the alert rules ({@code deploy/prometheus/outbox-relay-rules.yml}, read as YAML),
 * each with the labels its output names: a panel's legend ({@code {{relay}}}), a rule's annotations
 * ({@code $labels.relay}), a template variable's {@code label_values(metric, label)}.
 */
final class MonitoringFiles {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final Path DASHBOARD = ROOT.resolve("deploy/grafana/outbox-relay.json");
  static final Path RULES = ROOT.resolve("deploy/prometheus/outbox-relay-rules.yml");
  private static final Pattern LEGEND = Pattern.compile("\\{\\{\\s*(\\w+)\\s*}}");
  private static final Pattern RULE_LABEL = Pattern.compile("\\$labels\\.(\\w+)");
  private static final Pattern LABEL_VALUES =
      Pattern.compile("label_values\\(\\s*(\\w+)\\s*,\\s*(\\w+)\\s*\\)");

  /** One query: where it is (for messages), the PromQL, the labels its output must carry. */
  record Query(String where, String expr, Set<String> outputLabels) {}

  /** One alert rule. */
  record Alert(String name, String expr, String forDuration, String severity) {}

  private MonitoringFiles() {}

  static List<Query> dashboardQueries() {
    JsonNode dashboard = read(DASHBOARD, new ObjectMapper());
    List<Query> out = new ArrayList<>();
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.path("targets")) {
        out.add(
            new Query(
                "panel '" + panel.get("title").asText() + "' " + target.get("refId").asText(),
                target.get("expr").asText(),
                labels(LEGEND, target.path("legendFormat").asText())));
      }
    }
    for (JsonNode variable : dashboard.at("/templating/list")) {
      Matcher m = LABEL_VALUES.matcher(variable.at("/query/query").asText());
      if (!m.matches()) {
        throw new IllegalStateException("variable " + variable.get("name") + ": not label_values");
      }
      out.add(
          new Query("variable $" + variable.get("name").asText(), m.group(1), Set.of(m.group(2))));
    }
    return out;
  }

  static List<Alert> alerts() {
    List<Alert> out = new ArrayList<>();
    for (JsonNode group : read(RULES, new ObjectMapper(new YAMLFactory())).get("groups")) {
      for (JsonNode rule : group.get("rules")) {
        out.add(
            new Alert(
                rule.get("alert").asText(),
                rule.get("expr").asText(),
                rule.path("for").asText(""),
                rule.at("/labels/severity").asText("")));
      }
    }
    return out;
  }

  static List<Query> ruleQueries() {
    JsonNode rules = read(RULES, new ObjectMapper(new YAMLFactory()));
    List<Query> out = new ArrayList<>();
    for (JsonNode group : rules.get("groups")) {
      for (JsonNode rule : group.get("rules")) {
        out.add(
            new Query(
                "alert " + rule.get("alert").asText(),
                rule.get("expr").asText(),
                labels(RULE_LABEL, rule.get("annotations").toString())));
      }
    }
    return out;
  }

  static List<Query> allQueries() {
    List<Query> all = new ArrayList<>(dashboardQueries());
    all.addAll(ruleQueries());
    return all;
  }

  private static Set<String> labels(Pattern p, String text) {
    Set<String> out = new LinkedHashSet<>();
    p.matcher(text).results().forEach(r -> out.add(r.group(1)));
    return out;
  }

  private static JsonNode read(Path file, ObjectMapper mapper) {
    try {
      return mapper.readTree(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException(file + " does not parse: " + e.getMessage(), e);
    }
  }
}
