package dev.outboxrelay.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;

/**
 * Writes the report's charts as PNG files into a directory (beside the markdown that embeds them),
 * from a {@link Report} of this run or from a report's JSON ({@code benchmark-report.json}, or a
 * transcription of recorded figures in the same shape, e.g. {@code benchmarks/results/*.json}).
 */
final class ChartFiles {
  static final int WIDTH = 900;
  static final int HEIGHT = 480;

  /** A written chart: its file name (relative to the directory) and title. */
  record Chart(String file, String title) {}

  private ChartFiles() {}

  static Map<String, ChartPoint> points(Report report) {
    Map<String, ChartPoint> out = new LinkedHashMap<>();
    report.figures().forEach(f -> out.put(f.id(), ChartPoint.of(f)));
    return out;
  }

  /** The figures of a report's JSON: {@code figures[]} with id, label, median, min, max. */
  static Map<String, ChartPoint> points(Path json) throws IOException {
    Map<String, ChartPoint> out = new LinkedHashMap<>();
    for (JsonNode f : new ObjectMapper().readTree(Files.readString(json)).get("figures")) {
      String id = f.get("id").asText();
      double median = f.get("median").asDouble();
      out.put(
          id,
          new ChartPoint(
              id,
              f.get("label").asText(),
              median,
              f.path("min").asDouble(median),
              f.path("max").asDouble(median)));
    }
    return out;
  }

  /** Writes every chart the figures allow; returns them in the order the report shows them. */
  static List<Chart> write(Map<String, ChartPoint> points, Path dir) throws IOException {
    System.setProperty("java.awt.headless", "true");
    Files.createDirectories(dir);
    List<Chart> written = new ArrayList<>();
    write(dir, "throughput.png", Charts.throughput(points), written);
    write(dir, "latency.png", Charts.latency(points), written);
    write(
        dir,
        "drain-vs-batch-size.png",
        Charts.sweep(
            points,
            "Polling drain on PostgreSQL vs batch size (median, min–max)",
            "batch size",
            Map.of("batch.", "1 relay, PostgreSQL → Kafka")),
        written);
    write(
        dir,
        "drain-vs-instances.png",
        Charts.sweep(
            points,
            "Polling drain on PostgreSQL vs relay instances (median, min–max)",
            "relay instances",
            Map.of("instances.", "batch 500, PostgreSQL → Kafka")),
        written);
    Map<String, String> inFlight = new LinkedHashMap<>();
    inFlight.put("inflight.postgresql.", "PostgreSQL");
    inFlight.put("inflight.mariadb.", "MariaDB");
    write(
        dir,
        "drain-vs-in-flight.png",
        Charts.sweep(
            points,
            "Polling drain vs batches in flight (median, min–max)",
            "batches in flight",
            inFlight),
        written);
    return written;
  }

  private static void write(Path dir, String file, Optional<JFreeChart> chart, List<Chart> out)
      throws IOException {
    if (chart.isPresent()) {
      ChartUtils.saveChartAsPNG(dir.resolve(file).toFile(), chart.get(), WIDTH, HEIGHT);
      out.add(new Chart(file, chart.get().getTitle().getText()));
    }
  }
}
