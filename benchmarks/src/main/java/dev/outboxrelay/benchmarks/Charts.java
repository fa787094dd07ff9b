package dev.outboxrelay.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;

/**
 * The report's charts, drawn with JFreeChart from the figures' medians (bars) or medians with
 * min–max whiskers (sweeps). A chart whose figures the run did not measure is absent.
 */
final class Charts {
  static final String[] DBS = {"postgresql", "mariadb"};
  static final Color[] COLORS = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728)
  };

  private Charts() {}

  /** Drain rate of our two relays and the two peers, per database: the headline chart. */
  static Optional<JFreeChart> throughput(Map<String, ChartPoint> points) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    Map<String, String> series =
        Map.of(
            "polling", "ours: polling relay",
            "cdc", "ours: CDC relay",
            "debezium", "peer: Debezium + Event Router",
            "gruelbox", "peer: gruelbox transaction-outbox");
    for (String relay : List.of("polling", "cdc", "debezium", "gruelbox")) {
      for (String db : DBS) {
        ChartPoint p = points.get("drain." + relay + "." + db);
        if (p != null) {
          data.addValue(p.median(), series.get(relay), db);
        }
      }
    }
    return data.getRowCount() == 0
        ? Optional.empty()
        : Optional.of(bars("Drain throughput, ours vs peers (msg/s, median)", "msg/s", data));
  }

  /** Commit → broker ack p50, p99 and max per relay variant, on a log axis. */
  static Optional<JFreeChart> latency(Map<String, ChartPoint> points) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (ChartPoint p : points.values()) {
      if (p.id().startsWith("latency.") && p.id().endsWith(".p50")) {
        String base = p.id().substring(0, p.id().length() - 4);
        for (String q : List.of("p50", "p99", "max")) {
          ChartPoint v = points.get(base + "." + q);
          if (v != null) {
            data.addValue(v.median(), q, p.label());
          }
        }
      }
    }
    if (data.getRowCount() == 0) {
      return Optional.empty();
    }
    JFreeChart chart = bars("Latency commit → broker ack (ms, median of runs)", "ms", data);
    CategoryPlot plot = chart.getCategoryPlot();
    LogAxis axis = new LogAxis("ms (log scale)");
    axis.setSmallestValue(1);
    // Ticks at 1, 10, 100, 1000 ms, printed as numbers rather than powers of ten.
    axis.setAutoTickUnitSelection(false);
    axis.setTickUnit(new NumberTickUnit(1), false, false);
    axis.setNumberFormatOverride(new DecimalFormat("#,##0"));
    axis.setMinorTickCount(9);
    axis.setMinorTickMarksVisible(true);
    plot.setRangeAxis(axis);
    ((BarRenderer) plot.getRenderer()).setBase(1);
    plot.getDomainAxis().setMaximumCategoryLabelLines(3);
    return Optional.of(chart);
  }

  /** A sweep: the figures {@code prefix + x} for each x, median with min–max whiskers. */
  static Optional<JFreeChart> sweep(
      Map<String, ChartPoint> points, String title, String xLabel, Map<String, String> series) {
    XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
    for (Map.Entry<String, String> s : series.entrySet()) {
      XYIntervalSeries xy = new XYIntervalSeries(s.getValue());
      for (int x = 1; x <= 10_000; x = next(x)) {
        ChartPoint p = points.get(s.getKey() + x);
        if (p != null) {
          xy.add(x, x, x, p.median(), p.min(), p.max());
        }
      }
      if (xy.getItemCount() > 0) {
        data.addSeries(xy);
      }
    }
    if (data.getSeriesCount() == 0) {
      return Optional.empty();
    }
    JFreeChart chart =
        ChartFactory.createXYLineChart(
            title, xLabel, "msg/s", data, PlotOrientation.VERTICAL, true, false, false);
    XYPlot plot = chart.getXYPlot();
    XYErrorRenderer renderer = new XYErrorRenderer();
    renderer.setDrawXError(false);
    renderer.setDefaultLinesVisible(true);
    renderer.setCapLength(8);
    renderer.setErrorStroke(new BasicStroke(1.2f));
    for (int i = 0; i < data.getSeriesCount(); i++) {
      renderer.setSeriesPaint(i, COLORS[i % COLORS.length]);
      renderer.setSeriesStroke(i, new BasicStroke(2f));
    }
    plot.setRenderer(renderer);
    style(chart);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    NumberAxis x = (NumberAxis) plot.getDomainAxis();
    x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
    ((NumberAxis) plot.getRangeAxis()).setAutoRangeIncludesZero(true);
    return Optional.of(chart);
  }

  /** The x values the sweeps use: 1, 2, 3 (instances, in flight) and 100, 500, 2000 (batch). */
  private static int next(int x) {
    return x < 3 ? x + 1 : x == 3 ? 100 : x == 100 ? 500 : x == 500 ? 2000 : 10_001;
  }

  private static JFreeChart bars(String title, String unit, DefaultCategoryDataset data) {
    JFreeChart chart =
        ChartFactory.createBarChart(
            title, null, unit, data, PlotOrientation.VERTICAL, true, false, false);
    CategoryPlot plot = chart.getCategoryPlot();
    BarRenderer renderer = (BarRenderer) plot.getRenderer();
    renderer.setBarPainter(new StandardBarPainter());
    renderer.setShadowVisible(false);
    renderer.setItemMargin(0.05);
    renderer.setDefaultItemLabelGenerator(
        new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("#,##0")));
    renderer.setDefaultItemLabelsVisible(true);
    renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
    for (int i = 0; i < data.getRowCount(); i++) {
      renderer.setSeriesPaint(i, COLORS[i % COLORS.length]);
    }
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    style(chart);
    return chart;
  }

  private static void style(JFreeChart chart) {
    chart.setBackgroundPaint(Color.WHITE);
    chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
  }
}
