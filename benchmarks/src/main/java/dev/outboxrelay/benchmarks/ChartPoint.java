package dev.outboxrelay.benchmarks;

/**
 * One figure as a chart draws it: the median of its runs with min and max.
 *
 * @param id the figure's id, e.g. {@code drain.polling.postgresql}
 * @param label what the report calls it
 */
record ChartPoint(String id, String label, double median, double min, double max) {

  static ChartPoint of(Figure f) {
    Stats s = f.stats();
    return new ChartPoint(f.id(), f.label(), s.median(), s.min(), s.max());
  }
}
