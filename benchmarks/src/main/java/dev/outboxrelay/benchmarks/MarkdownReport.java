package dev.outboxrelay.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Renders a {@link Report} as markdown: the charts (PNG files beside it), then tables: throughput
 * with ratios, peers, latency, sweeps.
 */
final class MarkdownReport {
  static final String K = "kafka.raw";
  private static final String[] DBS = {"postgresql", "mariadb"};
  private final Report report;
  private final List<ChartFiles.Chart> charts;
  private final StringBuilder out = new StringBuilder();

  MarkdownReport(Report report, List<ChartFiles.Chart> charts) {
    this.report = report;
    this.charts = List.copyOf(charts);
  }

  String render() {
    out.append("# outbox-relay benchmark report\n\n");
    for (Map.Entry<String, String> f : report.facts().entrySet()) {
      out.append("- ").append(f.getKey()).append(": ").append(f.getValue()).append('\n');
    }
    out.append("\nEach figure: median of the runs, with min–max. ×K = ratio to raw Kafka.\n");
    if (!charts.isEmpty()) {
      section("Charts");
      charts.forEach(
          c -> out.append("![").append(c.title()).append("](").append(c.file()).append(")\n\n"));
    }
    endToEnd();
    throughput();
    peers();
    latency();
    sweep("Polling drain on PostgreSQL vs batch size", "batch.");
    sweep("Polling drain on PostgreSQL vs relay instances", "instances.");
    sweep("Polling drain vs batches in flight (1 = claim, publish, mark in turn)", "inflight.");
    table("Writer overhead (business transactions/s)", "writer.");
    table("Dedup consumer", "dedup.");
    table("Relay process memory", "rss.");
    targets();
    section("Machine load (uptime) before each part");
    report.loads().forEach(l -> out.append("- ").append(l).append('\n'));
    if (!report.notes().isEmpty()) {
      section("Notes");
      report.notes().forEach(n -> out.append("- ").append(n).append('\n'));
    }
    return out.toString();
  }

  /** Issue #20: the product as the demo runs it, reported first. */
  private void endToEnd() {
    if (report.figures().stream().noneMatch(f -> f.id().startsWith("e2e."))) {
      return;
    }
    section("End to end: writers → polling relay → dedup consumer");
    out.append("| database | msg/s | min–max | commit → effect p50 | p99 | max | how |\n");
    out.append("|---|---:|---:|---:|---:|---:|---|\n");
    for (String db : DBS) {
      Optional<Stats> rate = stats("e2e." + db + ".rate");
      if (rate.isEmpty()) {
        continue;
      }
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s ms | %s ms | %s ms | %s |%n",
              db,
              num(rate.get().median()),
              range(rate.get()),
              stats("e2e." + db + ".p50").map(s -> num(s.median())).orElse("–"),
              stats("e2e." + db + ".p99").map(s -> num(s.median())).orElse("–"),
              stats("e2e." + db + ".max").map(s -> num(s.median())).orElse("–"),
              report.figures().stream()
                  .filter(f -> f.id().equals("e2e." + db + ".rate"))
                  .findFirst()
                  .map(Figure::note)
                  .orElse("")));
    }
  }

  private void throughput() {
    section("Throughput");
    out.append("| figure | msg/s | min–max | runs | ×K | how |\n|---|---:|---:|---:|---:|---|\n");
    Optional<Stats> k = stats(K);
    for (Figure f : report.figures()) {
      if (f.id().equals(K) || f.id().startsWith("claim.") || f.id().startsWith("drain.")) {
        Stats s = f.stats();
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %d | %s | %s |%n",
                f.label(),
                num(s.median()),
                range(s),
                s.runs(),
                k.map(ks -> ratio(s.ratioTo(ks))).orElse("–"),
                f.note()));
      }
    }
  }

  private void peers() {
    section("Ours vs peers (same servers, same backlog, same Kafka)");
    out.append("| database | ours | ours msg/s | peer | peer msg/s | ours / peer |\n");
    out.append("|---|---|---:|---|---:|---:|\n");
    for (String db : DBS) {
      for (String ours : List.of("polling", "cdc")) {
        for (String peer : List.of("gruelbox", "debezium")) {
          Optional<Stats> o = stats("drain." + ours + "." + db);
          Optional<Stats> p = stats("drain." + peer + "." + db);
          if (o.isPresent() && p.isPresent()) {
            out.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s | %s |%n",
                    db,
                    ours,
                    num(o.get().median()),
                    peer,
                    num(p.get().median()),
                    ratio(o.get().ratioTo(p.get()))));
          }
        }
      }
    }
  }

  private void latency() {
    section("Latency commit → broker ack (ms)");
    out.append("| relay | offered | p50 | p99 | max | runs |\n|---|---:|---:|---:|---:|---:|\n");
    for (Figure f : report.figures()) {
      if (f.id().startsWith("latency.") && f.id().endsWith(".p50")) {
        String base = f.id().substring(0, f.id().length() - 4);
        out.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %s | %s | %s | %d |%n",
                f.label(),
                f.note(),
                cell(base + ".p50"),
                cell(base + ".p99"),
                cell(base + ".max"),
                f.stats().runs()));
      }
    }
  }

  private void sweep(String title, String prefix) {
    table(title, prefix);
  }

  private void table(String title, String prefix) {
    List<Figure> fs = report.figures().stream().filter(f -> f.id().startsWith(prefix)).toList();
    if (fs.isEmpty()) {
      return;
    }
    section(title);
    Optional<Stats> k = stats(K);
    out.append("| figure | median | min–max | unit | runs | ×K | how |\n");
    out.append("|---|---:|---:|---|---:|---:|---|\n");
    for (Figure f : fs) {
      Stats s = f.stats();
      boolean rate = f.unit().equals("msg/s");
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %d | %s | %s |%n",
              f.label(),
              num(s.median()),
              range(s),
              f.unit(),
              s.runs(),
              rate ? k.map(ks -> ratio(s.ratioTo(ks))).orElse("–") : "–",
              f.note()));
    }
  }

  /** Issue #19: our CDC relay against Debezium + Event Router, per database, both measures. */
  private void cdcTargets() {
    for (String db : List.of("postgresql", "mariadb")) {
      for (String measure : List.of("", ".from-start", ".live")) {
        Optional<Stats> ours = stats("drain.cdc." + db + measure);
        Optional<Stats> peer = stats("drain.debezium." + db + measure);
        if (ours.isPresent() && peer.isPresent()) {
          target(
              "CDC drain "
                  + db
                  + switch (measure) {
                    case "" -> " (backlog, first to last message)";
                    case ".from-start" -> " (backlog, from the engine's start)";
                    default -> " (live stream, first write to last message)";
                  }
                  + " ≥ 1.0 × Debezium + Event Router",
              ours.get().ratioTo(peer.get()),
              1.0,
              "×");
        }
      }
    }
  }

  private void targets() {
    section("Targets (issues #10, #18, #19, #20)");
    out.append("| target | measured | met |\n|---|---:|---|\n");
    Optional<Stats> k = stats(K);
    Optional<Stats> pg = stats("drain.polling.postgresql");
    Optional<Stats> cdc = stats("drain.cdc.postgresql");
    Optional<Stats> peer =
        stats("drain.gruelbox.postgresql")
            .flatMap(
                g ->
                    stats("drain.debezium.postgresql")
                        .map(d -> d.median() > g.median() ? d : g)
                        .or(() -> Optional.of(g)))
            .or(() -> stats("drain.debezium.postgresql"));
    if (k.isPresent() && pg.isPresent()) {
      target("polling drain PostgreSQL ≥ 0.35 × K", pg.get().ratioTo(k.get()), 0.35, "×K");
    }
    if (peer.isPresent() && pg.isPresent()) {
      target("polling drain PostgreSQL ≥ 2 × best peer", pg.get().ratioTo(peer.get()), 2, "×");
    }
    if (k.isPresent() && cdc.isPresent()) {
      target("CDC drain PostgreSQL ≥ 0.25 × K", cdc.get().ratioTo(k.get()), 0.25, "×K");
    }
    Optional<Stats> cdcMaria = stats("drain.cdc.mariadb");
    if (k.isPresent() && cdcMaria.isPresent()) {
      target("CDC drain MariaDB ≥ 0.25 × K", cdcMaria.get().ratioTo(k.get()), 0.25, "×K");
    }
    cdcTargets();
    dedupTargets();
    writerTargets();
    stats("latency.polling-notify.postgresql.p50")
        .ifPresent(
            p50 ->
                out.append(
                    String.format(
                        Locale.ROOT,
                        "| commit → ack p50 ≤ 5 ms with NOTIFY | %s ms | %s |%n",
                        num(p50.median()),
                        p50.median() <= 5 ? "yes" : "no")));
    stats("latency.polling-notify.postgresql.p99")
        .ifPresent(
            p99 ->
                out.append(
                    String.format(
                        Locale.ROOT,
                        "| commit → ack p99 ≤ 25 ms with NOTIFY | %s ms | %s |%n",
                        num(p99.median()),
                        p99.median() <= 25 ? "yes" : "no")));
  }

  /** Issue #20: the business transaction with {@code outbox.save} against it alone. */
  private void writerTargets() {
    for (String db : DBS) {
      String name = db.equals("postgresql") ? "PostgreSQL" : "MariaDB";
      for (String threads : List.of("", ".t32")) {
        stats("writer." + db + threads + ".ratio")
            .ifPresent(
                r ->
                    target(
                        "writer with / without outbox "
                            + name
                            + ", "
                            + (threads.isEmpty() ? "4" : "32")
                            + " threads ≥ 0.9",
                        r.median(),
                        0.9,
                        ""));
      }
    }
  }

  /** Issue #18: the dedup consumer in batch mode against the polling drain of the same run. */
  private void dedupTargets() {
    for (String db : DBS) {
      Optional<Stats> drain = stats("drain.polling." + db);
      if (drain.isEmpty()) {
        continue;
      }
      String name = db.equals("postgresql") ? "PostgreSQL" : "MariaDB";
      stats("dedup.kafka.batch." + db)
          .ifPresent(
              s ->
                  target(
                      "dedup consumer batch no-op " + name + " ≥ 1.5 × polling drain",
                      s.ratioTo(drain.get()),
                      1.5,
                      "×"));
      stats("dedup.kafka.batch-c3." + db)
          .ifPresent(
              s ->
                  target(
                      "dedup consumer batch concurrency(3) no-op "
                          + name
                          + " ≥ 1.5 × polling drain",
                      s.ratioTo(drain.get()),
                      1.5,
                      "×"));
      stats("dedup.kafka.batch-insert." + db)
          .ifPresent(
              s ->
                  target(
                      "dedup consumer batch + INSERT per message "
                          + name
                          + " ≥ 1.0 × polling drain",
                      s.ratioTo(drain.get()),
                      1.0,
                      "×"));
      Optional<Stats> insert = stats("dedup.kafka.batch-insert." + db);
      Optional<Stats> raw = stats("dedup.kafka.raw-insert-loop." + db);
      if (insert.isPresent() && raw.isPresent()) {
        // Not a goal: the anchor beside the goal row, what a loop of the same synchronous
        // INSERTs gets from the database alone (no Kafka, no dedup) in the same run.
        out.append(
            String.format(
                Locale.ROOT,
                "| (anchor) dedup batch + INSERT per message %s / raw JDBC INSERT loop"
                    + " (raw loop = %s × polling drain) | %s× | – |%n",
                name,
                num(raw.get().ratioTo(drain.get())),
                num(insert.get().ratioTo(raw.get()))));
      }
      stats("dedup.kafka.batch-insert-jdbc." + db)
          .ifPresent(
              s ->
                  target(
                      "dedup consumer batch + the same INSERTs as one JDBC batch (batchHandler) "
                          + name
                          + " ≥ 1.0 × polling drain",
                      s.ratioTo(drain.get()),
                      1.0,
                      "×"));
      stats("dedup.kafka.batch-insert-c3." + db)
          .ifPresent(
              s ->
                  target(
                      "dedup consumer batch concurrency(3) + INSERT per message "
                          + name
                          + " ≥ 1.0 × polling drain",
                      s.ratioTo(drain.get()),
                      1.0,
                      "×"));
    }
  }

  private void target(String what, double value, double goal, String unit) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %s %s | %s |%n",
            what,
            ratio(value).replace("×", ""),
            unit,
            value >= goal ? "yes" : "no"));
  }

  private String cell(String id) {
    return stats(id).map(s -> num(s.median()) + " (" + range(s) + ")").orElse("–");
  }

  private Optional<Stats> stats(String id) {
    return report.get(id).map(Figure::stats);
  }

  private void section(String title) {
    out.append("\n## ").append(title).append("\n\n");
  }

  static String num(double v) {
    if (Double.isNaN(v)) {
      return "–";
    }
    return Math.abs(v) >= 100
        ? String.format(Locale.ROOT, "%,.0f", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }

  static String range(Stats s) {
    return num(s.min()) + "–" + num(s.max());
  }

  static String ratio(double r) {
    return Double.isNaN(r) ? "–" : String.format(Locale.ROOT, "%.2f×", r);
  }
}
