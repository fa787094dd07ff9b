package dev.outboxrelay.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Median, min and max of a figure's runs. */
public record Stats(double median, double min, double max, int runs) {

  /**
   * Summarises samples; an even count takes the mean of the two middle values.
   *
   * @throws IllegalArgumentException if there are no samples
   */
  public static Stats of(List<Double> samples) {
    if (samples.isEmpty()) {
      throw new IllegalArgumentException("no samples");
    }
    List<Double> s = new ArrayList<>(samples);
    Collections.sort(s);
    int n = s.size();
    double median = n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    return new Stats(median, s.get(0), s.get(n - 1), n);
  }

  /** {@code median / other.median}, or NaN when the other is zero. */
  public double ratioTo(Stats other) {
    return other.median == 0 ? Double.NaN : median / other.median;
  }
}
