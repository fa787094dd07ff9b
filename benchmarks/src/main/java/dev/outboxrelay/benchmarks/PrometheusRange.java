package dev.outboxrelay.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Prometheus' HTTP API {@code /api/v1/query_range}: a PromQL query's series over a window. */
final class PrometheusRange {
  /** One series: its labels and its (epoch second, value) points. */
  record Series(Map<String, String> labels, List<double[]> points) {}

  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  /**
   * @param base e.g. {@code http://127.0.0.1:19090}
   */
  PrometheusRange(String base) {
    this.base = base;
  }

  List<Series> query(String promql, Instant start, Instant end, Duration step)
      throws IOException, InterruptedException {
    String url =
        base
            + "/api/v1/query_range?query="
            + URLEncoder.encode(promql, StandardCharsets.UTF_8)
            + "&start="
            + start.getEpochSecond()
            + "&end="
            + end.getEpochSecond()
            + "&step="
            + step.toSeconds();
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    JsonNode body = new ObjectMapper().readTree(r.body());
    if (r.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
      throw new IOException(
          "Prometheus answered " + r.statusCode() + " to " + promql + ": " + r.body());
    }
    List<Series> out = new ArrayList<>();
    for (JsonNode s : body.at("/data/result")) {
      Map<String, String> labels = new LinkedHashMap<>();
      s.get("metric").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
      List<double[]> points = new ArrayList<>();
      for (JsonNode v : s.get("values")) {
        points.add(new double[] {v.get(0).asDouble(), Double.parseDouble(v.get(1).asText())});
      }
      out.add(new Series(labels, points));
    }
    return out;
  }
}
