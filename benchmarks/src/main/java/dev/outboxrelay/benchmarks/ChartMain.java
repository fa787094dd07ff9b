package dev.outboxrelay.benchmarks;

import java.nio.file.Path;
import java.util.List;

/**
 * Draws the report's charts from a report's JSON without running anything: {@code ChartMain
 * <report.json> [dir]} writes the PNG files into {@code dir} (default: a directory beside the JSON
 * named after it: {@code results/<name>.json} draws into {@code results/<name>/}) and prints the
 * markdown that embeds them.
 */
public final class ChartMain {
  private ChartMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: ChartMain <report.json> [output-dir]");
      System.exit(2);
    }
    Path json = Path.of(args[0]).toAbsolutePath();
    Path dir =
        args.length == 2
            ? Path.of(args[1])
            : json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", ""));
    List<ChartFiles.Chart> charts = ChartFiles.write(ChartFiles.points(json), dir);
    for (ChartFiles.Chart c : charts) {
      System.out.println("![" + c.title() + "](" + dir.getFileName() + "/" + c.file() + ")");
    }
  }
}
