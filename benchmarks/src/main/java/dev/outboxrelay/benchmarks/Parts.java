package dev.outboxrelay.benchmarks;

import dev.outboxrelay.relay.polling.PollingSettings;
import dev.outboxrelay.servers.DatabaseServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs the report's parts in order; a failing part is noted in the report and skipped. */
final class Parts {
  interface Once {
    double run() throws Exception;
  }

  private static final String[] DBS = {"postgresql", "mariadb"};
  private final Profile p;
  private final Report report;
  private final Kafka kafka;
  private final Map<String, DatabaseServer> dbs;
  private final Path out;

  Parts(Profile p, Report report, Kafka kafka, Map<String, DatabaseServer> dbs, Path out) {
    this.p = p;
    this.report = report;
    this.kafka = kafka;
    this.dbs = dbs;
    this.out = out;
  }

  void runAll() throws Exception {
    int n = p.backlog();
    int size = p.payloadBytes();
    PollingBench polling = new PollingBench(kafka, size);
    CdcBench cdc = new CdcBench(kafka, size);
    part("warmup", () -> warmUp(polling, cdc, Math.min(n, 20_000), Math.min(n, CDC_WARM_ROWS)));
    part("e2e", this::endToEnd);
    part(
        "kafka",
        () ->
            figure(
                "kafka.raw",
                "K: raw Kafka producer",
                "msg/s",
                p.kafkaMessages() + " records, one producer",
                () -> RawKafka.run(kafka, p.kafkaMessages(), size)));
    // The relay's default batch size unless -Doutbox.bench.pollingBatch=N (for tuning runs).
    int drainBatch =
        Integer.getInteger("outbox.bench.pollingBatch", PollingSettings.BATCH_SIZE.defaultValue());
    for (String db : DBS) {
      part(
          "claim",
          () ->
              figure(
                  "claim." + db,
                  "raw claim + delete loop, " + db,
                  "msg/s",
                  "polling relay, batch " + drainBatch + ", publisher acks at once (no broker)",
                  () -> polling.drain(dbs.get(db), db, n, drainBatch, 1, false)));
    }
    for (String db : DBS) {
      part(
          "polling",
          () ->
              figure(
                  "drain.polling." + db,
                  "polling relay drain, " + db,
                  "msg/s",
                  "1 relay, batch " + drainBatch + ", to Kafka, default batches in flight",
                  () -> polling.drain(dbs.get(db), db, n, drainBatch, 1, true)));
    }
    // With both engines selected, their runs alternate (see alternating); the part is "cdc".
    boolean bothCdc = p.runs("cdc") && p.runs("debezium");
    for (String db : DBS) {
      String ours = "CDC relay drain, " + db;
      String peer = "peer Debezium 3.5 embedded + Outbox Event Router, " + db;
      String peerNote =
          "backlog written while stopped; batch acked before commit; rows not deleted";
      CdcRuns oursBacklog =
          new CdcRuns(
              "drain.cdc." + db,
              ours,
              "backlog written while stopped",
              false,
              () -> cdc.ours(dbs.get(db), db, n));
      CdcRuns oursLive =
          new CdcRuns("drain.cdc." + db, ours, "", true, () -> cdc.oursLive(dbs.get(db), db, n));
      CdcRuns peerBacklog =
          new CdcRuns(
              "drain.debezium." + db,
              peer,
              peerNote,
              false,
              () -> cdc.debezium(dbs.get(db), db, n));
      CdcRuns peerLive =
          new CdcRuns(
              "drain.debezium." + db, peer, "", true, () -> cdc.debeziumLive(dbs.get(db), db, n));
      if (bothCdc) {
        part("cdc", () -> alternating(cdc, oursBacklog, peerBacklog));
        part("cdc", () -> alternating(cdc, oursLive, peerLive));
      } else {
        part("cdc", () -> cdcFigures(cdc, oursBacklog));
        part("cdc", () -> cdcFigures(cdc, oursLive));
        part("debezium", () -> cdcFigures(cdc, peerBacklog));
        part("debezium", () -> cdcFigures(cdc, peerLive));
      }
    }
    GruelboxPeer gruelbox = new GruelboxPeer(kafka, size);
    for (String db : DBS) {
      part(
          "gruelbox",
          () ->
              figure(
                  "drain.gruelbox." + db,
                  "peer gruelbox transaction-outbox 4.2.268, " + db,
                  "msg/s",
                  "flush() loop, "
                      + GruelboxPeer.THREADS
                      + "-thread executor, send awaited per entry",
                  () -> gruelbox.drain(dbs.get(db), db, n)));
    }
    for (int batch : new int[] {100, 500, 2000}) {
      part(
          "batch",
          () ->
              figure(
                  "batch." + batch,
                  "batch size " + batch,
                  "msg/s",
                  "1 relay, PostgreSQL, to Kafka",
                  () -> polling.drain(dbs.get("postgresql"), "postgresql", n, batch, 1, true)));
    }
    for (String db : DBS) {
      for (int inFlight = 1; inFlight <= 4; inFlight++) {
        int f = inFlight;
        part(
            "inflight",
            () ->
                figure(
                    "inflight." + db + "." + f,
                    db + ", " + f + (f == 1 ? " batch" : " batches") + " in flight",
                    "msg/s",
                    "1 relay, batch 500, to Kafka" + (f == 1 ? " (sequential loop)" : ""),
                    () -> polling.drain(dbs.get(db), db, n, 500, 1, f, true)));
      }
    }
    for (int instances = 1; instances <= 3; instances++) {
      int k = instances;
      part(
          "instances",
          () ->
              figure(
                  "instances." + k,
                  k + " relay instance(s)",
                  "msg/s",
                  "batch 500, PostgreSQL, to Kafka, one JVM",
                  () -> polling.drain(dbs.get("postgresql"), "postgresql", n, 500, k, true)));
    }
    part("latency", this::latency);
    part("writer", this::writer);
    part("dedup", () -> dedup(n));
    part("rss", this::rss);
  }

  /**
   * Rows of each CDC engine's warm-up drain. With 20k, as the polling relay's, each engine's first
   * recorded 100k-row drain still ran its per-row code through C2 for the first time (in JFR our
   * processor's row conversion compiled for 0.3-0.45 s at level 4 during it, C2 at half a core
   * throughout), and read 19-23k msg/s against 30-42k in its later runs.
   */
  private static final int CDC_WARM_ROWS = 100_000;

  /**
   * Unrecorded drains first: the benchmark JVM's and the broker's JIT compile the hot paths here,
   * not during the first recorded figure. Both CDC engines run Debezium's connectors: without their
   * own warm-up our relay, whose parts run first, compiled the connector code the peer then ran
   * warm.
   */
  private void warmUp(PollingBench polling, CdcBench cdc, int rows, int cdcRows) throws Exception {
    RawKafka.run(kafka, rows * 2, p.payloadBytes());
    for (String db : DBS) {
      polling.drain(dbs.get(db), db, rows, 500, 1, true);
      polling.drain(dbs.get(db), db, rows, 500, 1, false);
    }
    if (p.parts().contains("cdc") || p.parts().contains("debezium")) {
      for (String db : DBS) {
        cdc.ours(dbs.get(db), db, cdcRows);
        cdc.debezium(dbs.get(db), db, cdcRows);
      }
    }
  }

  private void latency() throws Exception {
    LatencyBench bench = new LatencyBench(kafka, p.payloadBytes(), 0);
    record Variant(String id, String label, String db, LatencyBench.Mode mode) {}
    List<Variant> variants =
        List.of(
            new Variant(
                "polling-notify.postgresql",
                "polling + NOTIFY, PostgreSQL",
                "postgresql",
                LatencyBench.Mode.POLLING_NOTIFY),
            new Variant(
                "polling-poll.postgresql",
                "polling, no NOTIFY (250 ms poll), PostgreSQL",
                "postgresql",
                LatencyBench.Mode.POLLING_POLL),
            new Variant("cdc.postgresql", "CDC, PostgreSQL", "postgresql", LatencyBench.Mode.CDC),
            new Variant(
                "polling-poll.mariadb",
                "polling (250 ms poll), MariaDB",
                "mariadb",
                LatencyBench.Mode.POLLING_POLL),
            new Variant("cdc.mariadb", "CDC, MariaDB", "mariadb", LatencyBench.Mode.CDC));
    String only = System.getProperty("outbox.bench.latencyVariants", "");
    for (Variant v : variants) {
      if (!only.isEmpty() && !List.of(only.split(",")).contains(v.id())) {
        continue;
      }
      Map<String, List<Double>> s = new LinkedHashMap<>();
      for (int r = 0; r < p.runs(); r++) {
        try (Db db = new Db(dbs.get(v.db()), v.db())) {
          LatencyBench.Result res = bench.run(db, v.mode(), p.latencyRate(), p.latencyDuration());
          s.computeIfAbsent("p50", x -> new ArrayList<>()).add(res.p50());
          s.computeIfAbsent("p99", x -> new ArrayList<>()).add(res.p99());
          s.computeIfAbsent("max", x -> new ArrayList<>()).add(res.max());
          System.out.printf("  latency %s run %d: %s%n", v.id(), r + 1, res);
        } catch (Exception e) {
          // One variant failing (e.g. a message not relayed in time) must not hide the others.
          String why = "latency " + v.id() + " run " + (r + 1) + " failed: " + e.getMessage();
          System.out.println("!! " + why);
          report.note(why);
        }
      }
      if (s.isEmpty()) {
        continue;
      }
      String offered =
          p.latencyRate()
              + " msg/s × "
              + p.latencyDuration().toSeconds()
              + " s, linger.ms="
              + bench.lingerMs;
      s.forEach(
          (q, samples) ->
              report.add(
                  new Figure("latency." + v.id() + "." + q, v.label(), "ms", samples, offered)));
    }
  }

  /** Writers → polling relay → dedup consumer with the demo's INSERT, on one database. */
  private void endToEnd() throws Exception {
    EndToEndBench bench = new EndToEndBench(kafka, p.payloadBytes());
    for (String kind : DBS) {
      List<Double> rate = new ArrayList<>();
      Map<String, List<Double>> latency = new LinkedHashMap<>();
      for (int r = 0; r < p.runs(); r++) {
        try (Db db = new Db(dbs.get(kind), kind)) {
          EndToEndBench.Result res = bench.throughput(db, p.writerDuration().multipliedBy(2));
          rate.add(res.rate());
          System.out.printf("  e2e %s throughput run %d: %s%n", kind, r + 1, res);
        }
        try (Db db = new Db(dbs.get(kind), kind)) {
          EndToEndBench.Result res = bench.latency(db, p.latencyRate(), p.latencyDuration());
          latency.computeIfAbsent("p50", x -> new ArrayList<>()).add(res.p50());
          latency.computeIfAbsent("p99", x -> new ArrayList<>()).add(res.p99());
          latency.computeIfAbsent("max", x -> new ArrayList<>()).add(res.max());
          System.out.printf("  e2e %s latency run %d: %s%n", kind, r + 1, res);
        }
      }
      report.add(
          new Figure(
              "e2e." + kind + ".rate",
              "writers → polling relay → dedup consumer (INSERT per message), " + kind,
              "msg/s",
              rate,
              EndToEndBench.WRITERS
                  + " writers flat out for "
                  + p.writerDuration().multipliedBy(2).toSeconds()
                  + " s; first commit to last shipment, every order shipped once"));
      String offered = p.latencyRate() + " msg/s × " + p.latencyDuration().toSeconds() + " s";
      latency.forEach(
          (q, samples) ->
              report.add(
                  new Figure(
                      "e2e." + kind + "." + q,
                      "commit → shipment committed, " + kind,
                      "ms",
                      samples,
                      offered)));
    }
  }

  private void writer() throws Exception {
    WriterBench bench = new WriterBench(p.payloadBytes());
    for (String kind : DBS) {
      for (int threads : WriterBench.THREADS) {
        writer(bench, kind, threads);
      }
    }
  }

  /**
   * Figures {@code writer.<db>.*} at 4 threads (as before), {@code writer.<db>.t<n>.*} else; with
   * the anchors, the same order row with a hand-written {@code INSERT} of the outbox row ({@code
   * .hand}) and with an id and payload into a table with only a primary key ({@code .minimal}).
   */
  private void writer(WriterBench bench, String kind, int threads) throws Exception {
    List<Double> plain = new ArrayList<>();
    List<Double> with = new ArrayList<>();
    List<Double> hand = new ArrayList<>();
    List<Double> minimal = new ArrayList<>();
    List<Double> ratio = new ArrayList<>();
    List<Double> handRatio = new ArrayList<>();
    List<Double> minimalRatio = new ArrayList<>();
    List<Double> oursToHand = new ArrayList<>();
    List<Double> spring = new ArrayList<>();
    List<Double> springHand = new ArrayList<>();
    List<Double> springToHand = new ArrayList<>();
    for (int r = 0; r < p.runs(); r++) {
      try (Db db = new Db(dbs.get(kind), kind)) {
        double a = bench.run(db, threads, WriterBench.Row.NONE, p.writerDuration());
        double b = bench.run(db, threads, WriterBench.Row.SAVE, p.writerDuration());
        double h = bench.run(db, threads, WriterBench.Row.HAND_WRITTEN, p.writerDuration());
        double m = bench.run(db, threads, WriterBench.Row.MINIMAL, p.writerDuration());
        double sh = bench.run(db, threads, WriterBench.Row.SPRING_HAND, p.writerDuration());
        double ss = bench.run(db, threads, WriterBench.Row.SPRING_SAVE, p.writerDuration());
        spring.add(ss);
        springHand.add(sh);
        springToHand.add(ss / sh);
        plain.add(a);
        with.add(b);
        hand.add(h);
        minimal.add(m);
        ratio.add(b / a);
        handRatio.add(h / a);
        minimalRatio.add(m / a);
        oursToHand.add(b / h);
        System.out.printf(
            "  writer %s %d threads run %d: %.0f alone, %.0f with outbox.save, %.0f hand-written,"
                + " %.0f minimal row; Spring %.0f with SpringOutbox.save, %.0f hand-written tx/s%n",
            kind, threads, r + 1, a, b, h, m, ss, sh);
      }
    }
    String id = "writer." + kind + (threads == 4 ? "" : ".t" + threads);
    String how = threads + " threads, " + p.writerDuration().toSeconds() + " s, no relay";
    String label = ", " + kind + ", " + threads + " threads";
    report.add(new Figure(id + ".plain", "business tx alone" + label, "tx/s", plain, how));
    report.add(new Figure(id + ".outbox", "business tx + outbox.save" + label, "tx/s", with, how));
    report.add(
        new Figure(
            id + ".hand",
            "anchor: business tx + hand-written INSERT of the outbox row" + label,
            "tx/s",
            hand,
            how + "; the same table, the columns outbox.save sets but headers, no key order"));
    report.add(
        new Figure(
            id + ".minimal",
            "anchor: business tx + INSERT of id and payload only" + label,
            "tx/s",
            minimal,
            how + "; a table of an id primary key and the payload, nothing else"));
    report.add(
        new Figure(id + ".ratio", "with / without outbox" + label, "ratio", ratio, "per run"));
    report.add(
        new Figure(
            id + ".hand.ratio",
            "anchor: hand-written outbox row / without" + label,
            "ratio",
            handRatio,
            "per run"));
    report.add(
        new Figure(
            id + ".minimal.ratio",
            "anchor: id-and-payload row / without" + label,
            "ratio",
            minimalRatio,
            "per run"));
    report.add(
        new Figure(
            id + ".vs-hand",
            "outbox.save / hand-written outbox row" + label,
            "ratio",
            oursToHand,
            "per run"));
    String springHow = how + "; TransactionTemplate over DataSourceTransactionManager";
    report.add(
        new Figure(
            id + ".spring",
            "Spring tx + SpringOutbox.save (written at commit)" + label,
            "tx/s",
            spring,
            springHow));
    report.add(
        new Figure(
            id + ".spring.hand",
            "anchor: Spring tx + hand-written INSERT of the outbox row" + label,
            "tx/s",
            springHand,
            springHow));
    report.add(
        new Figure(
            id + ".spring.vs-hand",
            "SpringOutbox.save / hand-written outbox row, Spring tx" + label,
            "ratio",
            springToHand,
            "per run"));
  }

  /** The dedup consumer per mode and database; per-record mode on at most 20k messages. */
  private void dedup(int n) throws Exception {
    DedupBench bench = new DedupBench(kafka, p.payloadBytes());
    // For profiling one variant: e.g. -Doutbox.bench.dedupVariants=batch.postgresql
    String only = System.getProperty("outbox.bench.dedupVariants", "");
    for (DedupBench.Mode mode : DedupBench.Mode.values()) {
      int count = mode == DedupBench.Mode.RECORD ? Math.min(n, 20_000) : n;
      for (String kind : DBS) {
        if (!only.isEmpty() && !List.of(only.split(",")).contains(mode.id + "." + kind)) {
          continue;
        }
        try {
          figure(
              "dedup.kafka." + mode.id + "." + kind,
              "DedupKafkaConsumer " + mode.label + ", " + kind,
              "msg/s",
              mode.how() + (count < n ? ", " + count + " messages" : "") + "; high-water mark off",
              () -> {
                try (Db db = new Db(dbs.get(kind), kind)) {
                  return bench.run(db, count, mode);
                }
              });
        } catch (Exception e) {
          String why = "dedup " + mode.id + " " + kind + " failed: " + e;
          System.out.println("!! " + why);
          e.printStackTrace(System.out);
          report.note(why);
        }
      }
    }
  }

  private void rss() throws Exception {
    RssBench bench = new RssBench(kafka, p.payloadBytes());
    String root = System.getProperty("outbox.project.root", ".");
    Path jar;
    try (var jars =
        Files.newDirectoryStream(
            Paths.get(root, "outbox-relay-daemon", "target"), "outbox-relay-daemon-*-all.jar")) {
      var found = jars.iterator(); // the version is the build's
      if (!found.hasNext()) {
        throw new IllegalStateException("outbox-relay-daemon/target has no -all jar: package it");
      }
      jar = found.next();
    }
    List<Double> samples = new ArrayList<>();
    for (int r = 0; r < p.runs(); r++) {
      try (Db db = new Db(dbs.get("postgresql"), "postgresql")) {
        samples.add(bench.run(db, p.backlog(), jar));
      }
    }
    report.add(
        new Figure(
            "rss.relay",
            "peak RSS (VmHWM) of " + bench.what,
            "MiB",
            samples,
            "draining " + p.backlog() + " rows from PostgreSQL to Kafka"));
  }

  /**
   * The samples of one CDC figure, run by run. A backlog drain ({@code live} false) makes two
   * figures: first to last message ({@code id}, start-up excluded), and engine start to last
   * message ({@code id.from-start}), which also counts what an engine does before its first message
   * (reading the stream, a catch-up). A live drain ({@code id.live}) runs from the first write to
   * the last message, with the writer's own rate ({@code id.live.write}) and the last message's
   * delay after the last commit ({@code id.live.tail}).
   */
  private final class CdcRuns {
    final String id;
    final String label;
    final String note;
    final boolean live;
    final Once once;
    final List<Double> samples = new ArrayList<>();
    final List<Double> second = new ArrayList<>(); // from-start, or the writer's rate
    final List<Double> tail = new ArrayList<>();
    final List<Double> jvmCpu = new ArrayList<>();
    final List<Double> dbCpu = new ArrayList<>();
    final List<Double> dbCpuWithClose = new ArrayList<>();

    CdcRuns(String id, String label, String note, boolean live, Once once) {
      this.id = id;
      this.label = label;
      this.note = note;
      this.live = live;
      this.once = once;
    }

    void run(CdcBench cdc) throws Exception {
      samples.add(once.run());
      int r = samples.size();
      if (live) {
        second.add(cdc.lastWriteRate);
        tail.add((double) cdc.lastTailMillis);
        jvmCpu.add(cdc.lastJvmCpuMicros);
        dbCpu.add(cdc.lastDbCpuMicros);
        dbCpuWithClose.add(cdc.lastDbCpuWithCloseMicros);
        System.out.printf(
            "  %s.live run %d: %.1f msg/s, writer %.1f rows/s, last message %d ms after the last"
                + " commit; CPU per message: JVM %.1f µs, database %.1f µs (%.1f µs through the"
                + " close)%n",
            id,
            r,
            samples.get(r - 1),
            second.get(r - 1),
            cdc.lastTailMillis,
            cdc.lastJvmCpuMicros,
            cdc.lastDbCpuMicros,
            cdc.lastDbCpuWithCloseMicros);
      } else {
        second.add(cdc.lastFromStart);
        System.out.printf(
            "  %s run %d: %.1f msg/s, %.1f msg/s from the engine's start%n",
            id, r, samples.get(r - 1), second.get(r - 1));
      }
    }

    void report() {
      if (!live) {
        report.add(
            new Figure(
                id, label, "msg/s", samples, note + "; first to last message (start-up excluded)"));
        report.add(
            new Figure(
                id + ".from-start",
                label + ", from the engine's start",
                "msg/s",
                second,
                note + "; engine start to last message"));
        return;
      }
      String how =
          "written while it streams, "
              + (CdcBench.LIVE_WRITERS == 1 ? "one writer" : CdcBench.LIVE_WRITERS + " writers")
              + ", "
              + CdcBench.LIVE_ROWS_PER_TX
              + " rows per transaction";
      report.add(
          new Figure(
              id + ".live",
              label + ", live stream",
              "msg/s",
              samples,
              how + "; first write to last message"));
      report.add(
          new Figure(
              id + ".live.write", label + ", live stream: the writer", "rows/s", second, how));
      report.add(
          new Figure(
              id + ".live.tail",
              label + ", live stream: last message after the last commit",
              "ms",
              tail,
              how));
      report.add(
          new Figure(
              id + ".live.cpu.jvm",
              label + ", live stream: the benchmark JVM's CPU per message",
              "µs",
              jvmCpu,
              how
                  + "; the engine, the writer's client and the topic's count; first write to last"
                  + " message"));
      report.add(
          new Figure(
              id + ".live.cpu.db",
              label + ", live stream: the database server's CPU per message",
              "µs",
              dbCpu,
              how + "; every server process, /proc; first write to last message"));
      report.add(
          new Figure(
              id + ".live.cpu.db.with-close",
              label + ", live stream: the database server's CPU per message, through the close",
              "µs",
              dbCpuWithClose,
              how + "; as above, through the engine's close (ours has retained the rows by then)"));
    }
  }

  /** Every run of one CDC figure in turn. */
  private void cdcFigures(CdcBench cdc, CdcRuns figure) throws Exception {
    for (int r = 0; r < p.runs(); r++) {
      figure.run(cdc);
    }
    figure.report();
  }

  /**
   * Our relay's and the peer's runs of the same figure alternate (ours, the peer's, the peer's,
   * ours, ...), after one unrecorded run of each: neither engine runs every time in the other's
   * wake or first after a switch (the JIT still compiling code they share, the servers' background
   * work after a drain).
   */
  private void alternating(CdcBench cdc, CdcRuns ours, CdcRuns peer) throws Exception {
    // One unrecorded run of each first: the group's first run after another database's (or
    // mode's) runs is the slow one: ours, when it always went first, read 14-34 % below its
    // second run on PostgreSQL, and the peer's, second, did not.
    ours.once.run();
    peer.once.run();
    System.out.printf("  %s, %s: one unrecorded run each%n", ours.id, peer.id);
    for (int r = 0; r < p.runs(); r++) {
      // ours, peer, peer, ours, ...: neither always runs right after the other
      CdcRuns first = r % 2 == 0 ? ours : peer;
      first.run(cdc);
      (first == ours ? peer : ours).run(cdc);
    }
    ours.report();
    peer.report();
  }

  private void figure(String id, String label, String unit, String note, Once once)
      throws Exception {
    List<Double> samples = new ArrayList<>();
    for (int r = 0; r < p.runs(); r++) {
      double v = once.run();
      samples.add(v);
      System.out.printf("  %s run %d: %.1f %s%n", id, r + 1, v, unit);
    }
    report.add(new Figure(id, label, unit, samples, note));
  }

  private interface Body {
    void run() throws Exception;
  }

  private void part(String name, Body body) throws Exception {
    if (!p.runs(name)) {
      return;
    }
    String load = Machine.uptime();
    report.load(name, load);
    System.out.println("== " + name + " (" + load + ")");
    try {
      body.run();
    } catch (Exception | LinkageError e) {
      String why = name + " failed: " + e;
      System.out.println("!! " + why);
      e.printStackTrace(System.out);
      report.note(why);
    }
    report.write(out); // keep partial results if a later part hangs
  }
}
