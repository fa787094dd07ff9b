package dev.outboxrelay.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Renders the Grafana dashboard ({@code deploy/grafana/outbox-relay.json}) without Grafana: each
 * panel's queries go to a Prometheus ({@link PrometheusRange}) and the results are drawn where the
 * panel's {@code gridPos} puts it, time series with JFreeChart ({@link DashboardPanels}), stat
 * panels as their last values against the panel's thresholds, text panels as text. Dashboard
 * variables are replaced: {@code $relay} by {@code .*} (all), {@code $__rate_interval} by the rate
 * window given. Usage: {@code DashboardShot <dashboard.json> <prometheus-url> <start-epoch>
 * <end-epoch> <out.png> [rate-window]}.
 */
public final class DashboardShot {
  static final int COLUMN = 75;
  static final int ROW = 34;
  static final int HEADER = 56;

  private DashboardShot() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    JsonNode dashboard = new ObjectMapper().readTree(Files.readString(Path.of(args[0])));
    PrometheusRange prometheus = new PrometheusRange(args[1]);
    Instant start = Instant.ofEpochSecond(Long.parseLong(args[2]));
    Instant end = Instant.ofEpochSecond(Long.parseLong(args[3]));
    String rateWindow = args.length > 5 ? args[5] : "30s";
    Duration step = Duration.ofSeconds(Math.max(1, Duration.between(start, end).toSeconds() / 240));
    int bottom = 0;
    for (JsonNode p : dashboard.get("panels")) {
      bottom = Math.max(bottom, p.at("/gridPos/y").asInt() + p.at("/gridPos/h").asInt());
    }
    BufferedImage image =
        new BufferedImage(24 * COLUMN, HEADER + bottom * ROW + 8, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(DashboardPanels.PAGE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    g.setColor(DashboardPanels.TEXT);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
    g.drawString(dashboard.get("title").asText() + " — " + start + " to " + end, 12, 26);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setColor(DashboardPanels.MUTED);
    g.drawString(
        "Not Grafana: each panel's PromQL evaluated by Prometheus (query_range, step "
            + step.toSeconds()
            + " s, $relay=.*, $__rate_interval="
            + rateWindow
            + ") and drawn by DashboardShot with JFreeChart",
        12,
        46);
    for (JsonNode p : dashboard.get("panels")) {
      Rectangle2D area =
          new Rectangle2D.Double(
              p.at("/gridPos/x").asInt() * COLUMN + 4,
              HEADER + p.at("/gridPos/y").asInt() * ROW + 4,
              p.at("/gridPos/w").asInt() * COLUMN - 8,
              p.at("/gridPos/h").asInt() * ROW - 8);
      List<DashboardPanels.Query> queries = new ArrayList<>();
      for (JsonNode t : p.path("targets")) {
        String expr =
            t.get("expr").asText().replace("$__rate_interval", rateWindow).replace("$relay", ".*");
        queries.add(
            new DashboardPanels.Query(
                t.path("legendFormat").asText(), prometheus.query(expr, start, end, step)));
      }
      DashboardPanels.draw(g, p, area, queries);
    }
    g.dispose();
    ImageIO.write(image, "png", Path.of(args[4]).toFile());
    System.out.println("dashboard: " + Path.of(args[4]).toAbsolutePath());
  }
}
