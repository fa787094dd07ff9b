package dev.outboxrelay.benchmarks;

import java.util.List;

/**
 * One measured figure: its runs' samples and what it means.
 *
 * @param id stable machine name, e.g. {@code drain.polling.postgresql}
 * @param label what a reader sees in the report
 * @param unit e.g. {@code msg/s}, {@code ms}, {@code MiB}
 * @param samples one value per run
 * @param note how it was measured (settings, caveats)
 */
public record Figure(String id, String label, String unit, List<Double> samples, String note) {

  public Figure {
    samples = List.copyOf(samples);
  }

  public Stats stats() {
    return Stats.of(samples);
  }
}
