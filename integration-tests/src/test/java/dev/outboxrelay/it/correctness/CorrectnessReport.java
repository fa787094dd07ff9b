package dev.outboxrelay.it.correctness;

import dev.outboxrelay.testing.history.CheckReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The markdown report of this JVM's correctness scenarios, {@code target/correctness/report.md},
 * rewritten after every scenario so a failing run still leaves the rows so far.
 */
final class CorrectnessReport {
  private static final List<String> ROWS = new ArrayList<>();
  private static final Instant STARTED = Instant.now();

  private CorrectnessReport() {}

  static synchronized void add(String scenario, CheckReport r, String faults, Duration elapsed) {
    ROWS.add(
        String.join(
            " | ",
            "| " + scenario,
            String.valueOf(r.committed()),
            String.valueOf(r.rolledBack()),
            String.valueOf(r.unknown()),
            String.valueOf(r.delivered()),
            String.valueOf(r.rawDuplicates()),
            String.valueOf(r.lost().size()),
            String.valueOf(r.phantom().size()),
            String.valueOf(r.orderViolations().size()),
            r.effectsChecked() ? String.valueOf(r.duplicateEffects()) : "n/a",
            r.effectsChecked() ? String.valueOf(r.missingEffects().size()) : "n/a",
            r.drainTime().map(d -> String.format("%.1f", d.toMillis() / 1000.0)).orElse("n/a"),
            String.valueOf(elapsed.toSeconds()),
            faults.isEmpty() ? "none" : faults,
            (r.holds() ? "PASS" : "FAIL") + " |"));
    write();
  }

  private static void write() {
    List<String> lines = new ArrayList<>();
    lines.add("# Correctness report");
    lines.add("");
    lines.add(
        "Profile `"
            + CorrectnessRun.PROFILE
            + "` ("
            + CorrectnessRun.MESSAGES
            + " messages written per scenario), started "
            + STARTED
            + ", relays from "
            + (RelayProcess.usesDaemonJar() ? "the daemon jar" : "RelayMain (test classpath)")
            + ".");
    lines.add("");
    lines.add(
        "| scenario | committed | rolled back | unknown | delivered | raw dup | lost | phantom"
            + " | order viol. | dup effects | missing effects | drain s | run s | faults | result |");
    lines.add("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
    lines.addAll(ROWS);
    lines.add("");
    lines.add(
        "committed / rolled back / unknown: writer transactions' outcomes (unknown = commit call"
            + " failed; settled from the business table). delivered: messages on the broker,"
            + " duplicates included. drain: from the end of the last fault or of the writes,"
            + " whichever is later, until every committed message was delivered and applied.");
    try {
      Files.createDirectories(CorrectnessRun.DIR);
      Files.write(CorrectnessRun.DIR.resolve("report.md"), lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
