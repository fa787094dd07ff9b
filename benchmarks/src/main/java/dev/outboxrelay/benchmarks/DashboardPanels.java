package dev.outboxrelay.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outboxrelay.benchmarks.PrometheusRange.Series;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.time.Millisecond;
import org.jfree.data.time.TimeSeries;
import org.jfree.data.time.TimeSeriesCollection;

/** Draws one dashboard panel for {@link DashboardShot}, in Grafana's dark colours. */
final class DashboardPanels {
  static final Color PAGE = new Color(0x111217);
  static final Color PANEL = new Color(0x181b1f);
  static final Color TEXT = new Color(0xd8d9da);
  static final Color MUTED = new Color(0x8e8e8e);
  private static final Color[] SERIES = {
    new Color(0x73bf69), new Color(0xf2cc0c), new Color(0x5794f2), new Color(0xff780a),
    new Color(0xf2495c), new Color(0xb877d9), new Color(0x8ab8ff), new Color(0xfade2a)
  };
  private static final Map<String, Color> NAMED =
      Map.of("green", new Color(0x56a64b), "red", new Color(0xe02f44));

  /** One query's legend format and result. */
  record Query(String legendFormat, List<Series> series) {}

  private DashboardPanels() {}

  static void draw(Graphics2D g, JsonNode panel, Rectangle2D a, List<Query> queries) {
    String type = panel.get("type").asText();
    String title = panel.get("title").asText();
    if (type.equals("row")) {
      g.setColor(TEXT);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
      g.drawString(title, (int) a.getX() + 4, (int) a.getMaxY() - 6);
      return;
    }
    g.setColor(PANEL);
    g.fill(a);
    g.setColor(TEXT);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    g.drawString(title, (int) a.getX() + 8, (int) a.getY() + 18);
    Rectangle2D body =
        new Rectangle2D.Double(a.getX() + 4, a.getY() + 24, a.getWidth() - 8, a.getHeight() - 28);
    switch (type) {
      case "timeseries" -> timeseries(panel, queries).draw(g, body);
      case "stat" -> stat(g, panel, body, queries);
      default -> text(g, body, panel.at("/options/content").asText());
    }
  }

  private static JFreeChart timeseries(JsonNode panel, List<Query> queries) {
    TimeSeriesCollection data = new TimeSeriesCollection();
    for (Query q : queries) {
      for (Series s : q.series()) {
        TimeSeries ts = new TimeSeries(legend(q.legendFormat(), s.labels()));
        for (double[] p : s.points()) {
          ts.addOrUpdate(new Millisecond(new java.util.Date((long) (p[0] * 1000))), p[1]);
        }
        data.addSeries(ts);
      }
    }
    String unit = panel.at("/fieldConfig/defaults/unit").asText();
    JFreeChart chart =
        ChartFactory.createTimeSeriesChart(null, null, unit.equals("s") ? "seconds" : null, data);
    chart.setBackgroundPaint(PANEL);
    chart.getLegend().setBackgroundPaint(PANEL);
    chart.getLegend().setItemPaint(TEXT);
    XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(PANEL);
    plot.setOutlineVisible(false);
    plot.setDomainGridlinePaint(new Color(0x2c3235));
    plot.setRangeGridlinePaint(new Color(0x2c3235));
    for (var axis : List.of(plot.getDomainAxis(), plot.getRangeAxis())) {
      axis.setTickLabelPaint(MUTED);
      axis.setLabelPaint(MUTED);
      axis.setAxisLinePaint(MUTED);
    }
    // A flat series (0 errors, 256 buckets) would otherwise get an axis of 1E-9 steps.
    NumberAxis range = (NumberAxis) plot.getRangeAxis();
    range.setAutoRangeIncludesZero(true);
    range.setAutoRangeMinimumSize(1);
    range.setNumberFormatOverride(new DecimalFormat("#,##0.##"));
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
    for (int i = 0; i < data.getSeriesCount(); i++) {
      r.setSeriesPaint(i, SERIES[i % SERIES.length]);
      r.setSeriesStroke(i, new BasicStroke(1.8f));
    }
    plot.setRenderer(r);
    return chart;
  }

  private static void stat(Graphics2D g, JsonNode panel, Rectangle2D body, List<Query> queries) {
    List<Map.Entry<String, Double>> values = new java.util.ArrayList<>();
    for (Query q : queries) {
      for (Series s : q.series()) {
        double last = s.points().isEmpty() ? Double.NaN : s.points().get(s.points().size() - 1)[1];
        values.add(Map.entry(legend(q.legendFormat(), s.labels()), last));
      }
    }
    double w = body.getWidth() / Math.max(1, values.size());
    for (int i = 0; i < values.size(); i++) {
      Rectangle2D box =
          new Rectangle2D.Double(body.getX() + i * w + 2, body.getY(), w - 4, body.getHeight());
      double v = values.get(i).getValue();
      g.setColor(color(panel, v));
      g.fill(box);
      g.setColor(Color.WHITE);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      g.drawString(values.get(i).getKey(), (int) box.getX() + 8, (int) box.getY() + 16);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 26));
      g.drawString(shown(panel, v), (int) box.getX() + 8, (int) box.getMaxY() - 12);
    }
  }

  private static Color color(JsonNode panel, double v) {
    Color c = PANEL.brighter();
    for (JsonNode step : panel.at("/fieldConfig/defaults/thresholds/steps")) {
      if (step.get("value").isNull() || v >= step.get("value").asDouble()) {
        c = NAMED.getOrDefault(step.get("color").asText(), c);
      }
    }
    return c;
  }

  private static String shown(JsonNode panel, double v) {
    for (JsonNode m : panel.at("/fieldConfig/defaults/mappings")) {
      JsonNode text = m.at("/options/" + new DecimalFormat("0").format(v) + "/text");
      if (!text.isMissingNode()) {
        return text.asText();
      }
    }
    return Double.isNaN(v) ? "no data" : new DecimalFormat("#,##0.##").format(v);
  }

  private static void text(Graphics2D g, Rectangle2D body, String content) {
    g.setColor(MUTED);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    int y = (int) body.getY() + 14;
    StringBuilder line = new StringBuilder();
    for (String word : content.replace("`", "").split(" ")) {
      if (g.getFontMetrics().stringWidth(line + word) > body.getWidth() - 16) {
        g.drawString(line.toString(), (int) body.getX() + 4, y);
        y += 17;
        line.setLength(0);
      }
      line.append(word).append(' ');
    }
    g.drawString(line.toString(), (int) body.getX() + 4, y);
  }

  static String legend(String format, Map<String, String> labels) {
    String out = format.isEmpty() ? labels.toString() : format;
    for (Map.Entry<String, String> e : labels.entrySet()) {
      out = out.replace("{{" + e.getKey() + "}}", e.getValue());
    }
    return out;
  }
}
