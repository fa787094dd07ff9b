package dev.outboxrelay.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one benchmark run does. {@code --quick}: 20k-row backlogs, 2 runs; full: 200k rows, 3 runs.
 * {@code --runs=N}, {@code --backlog=N}, {@code --payload=BYTES} and {@code --only=part,part}
 * override. The databases run durable unless {@code --fast-db} (see {@link DbSettings}).
 */
record Profile(
    String name,
    int runs,
    int backlog,
    int kafkaMessages,
    int payloadBytes,
    Duration latencyDuration,
    int latencyRate,
    Duration writerDuration,
    Set<String> parts,
    boolean fastDb) {

  static final Set<String> ALL =
      new TreeSet<>(
          Arrays.asList(
              "warmup",
              "e2e",
              "kafka",
              "claim",
              "polling",
              "inflight",
              "cdc",
              "gruelbox",
              "debezium",
              "batch",
              "instances",
              "latency",
              "writer",
              "dedup",
              "rss"));

  static Profile parse(String[] args) {
    boolean quick = Arrays.asList(args).contains("--quick");
    boolean fastDb = Arrays.asList(args).contains("--fast-db");
    int runs = quick ? 2 : 3;
    int backlog = quick ? 20_000 : 200_000;
    int payload = 256;
    Set<String> parts = ALL;
    for (String a : args) {
      if (a.startsWith("--only=") && !a.contains("warmup")) {
        a = a + ",warmup"; // every selection warms up first
      }
      if (a.startsWith("--runs=")) {
        runs = Integer.parseInt(a.substring(7));
      } else if (a.startsWith("--backlog=")) {
        backlog = Integer.parseInt(a.substring(10));
      } else if (a.startsWith("--payload=")) {
        payload = Integer.parseInt(a.substring(10));
      } else if (a.startsWith("--only=")) {
        parts = new TreeSet<>(Arrays.asList(a.substring(7).split(",")));
        if (!ALL.containsAll(parts)) {
          throw new IllegalArgumentException("--only takes parts of " + ALL + ", but was " + parts);
        }
      } else if (!a.equals("--quick") && !a.equals("--fast-db")) {
        throw new IllegalArgumentException(
            "usage: [--quick] [--fast-db] [--runs=N] [--backlog=N] [--payload=BYTES] [--only="
                + ALL
                + "]");
      }
    }
    return new Profile(
        quick ? "quick" : "full",
        runs,
        backlog,
        Math.max(500_000, backlog * 2),
        payload,
        Duration.ofSeconds(quick ? 10 : 30),
        1000,
        Duration.ofSeconds(quick ? 5 : 15),
        parts,
        fastDb);
  }

  boolean runs(String part) {
    return parts.contains(part);
  }
}
