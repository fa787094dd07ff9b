package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A diagnostic A/B of the writer's variants (not a report figure): on one fresh database per
 * database and thread count, short slices of the business transaction alone ({@code plain}), with
 * {@code outbox.save} of a message with a random id ({@code random}) and with the default
 * time-ordered id ({@code v7}), in rotating order for several rounds, so a noisy machine's drift
 * falls on every variant alike. Prints each slice and the median ratio to {@code plain}; on
 * PostgreSQL also WAL bytes per transaction. Run: {@code java -cp <classpath> ...WriterAb [rounds]
 * [seconds] [threads,...] [dbs]}; durable settings as the harness.
 */
public final class WriterAb {
  private WriterAb() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    Duration slice = Duration.ofSeconds(args.length > 1 ? Integer.parseInt(args[1]) : 4);
    List<Integer> threadCounts = new ArrayList<>();
    for (String t : (args.length > 2 ? args[2] : "4,32").split(",")) {
      threadCounts.add(Integer.parseInt(t));
    }
    List<String> kinds = List.of((args.length > 3 ? args[3] : "postgresql,mariadb").split(","));
    System.out.println("settings: " + DbSettings.apply(false));
    Map<String, DatabaseServer> dbs = new LinkedHashMap<>();
    if (kinds.contains("postgresql")) {
      dbs.put("postgresql", PostgresServer.shared());
    }
    if (kinds.contains("mariadb")) {
      dbs.put("mariadb", MariaDbServer.shared());
    }
    WriterBench bench = new WriterBench(256);
    Map<String, WriterBench.Variant> all = new LinkedHashMap<>();
    all.put("plain", new WriterBench.Variant(WriterBench.Row.NONE, false, true, 0));
    all.put("plain+1rt", new WriterBench.Variant(WriterBench.Row.NONE, false, true, 1));
    all.put("plain+2rt", new WriterBench.Variant(WriterBench.Row.NONE, false, true, 2));
    all.put("random", new WriterBench.Variant(WriterBench.Row.SAVE, true, true, 0));
    all.put("v7", new WriterBench.Variant(WriterBench.Row.SAVE, false, true, 0));
    all.put("hand", new WriterBench.Variant(WriterBench.Row.HAND_WRITTEN, false, true, 0));
    all.put("minimal", new WriterBench.Variant(WriterBench.Row.MINIMAL, false, true, 0));
    all.put("v7-nokeyorder", new WriterBench.Variant(WriterBench.Row.SAVE, false, false, 0));
    all.put("buffer", new WriterBench.Variant(WriterBench.Row.BUFFER, false, true, 0));
    all.put("spring", new WriterBench.Variant(WriterBench.Row.SPRING_SAVE, false, true, 0));
    all.put("spring-hand", new WriterBench.Variant(WriterBench.Row.SPRING_HAND, false, true, 0));
    // PostgreSQL only: a part of the outbox row taken away for one slice (DDL before, undone
    // after).
    Map<String, String[]> ddl = new LinkedHashMap<>();
    // The writer's pg_notify (at most one save per 20 ms) off: what the wake-up costs.
    all.put("v7-nowakeup", new WriterBench.Variant(WriterBench.Row.SAVE, false, true, 0, false));
    all.put("v7-nobucketidx", all.get("v7"));
    ddl.put(
        "v7-nobucketidx",
        new String[] {
          "DROP INDEX outbox_bucket_seq",
          "CREATE INDEX outbox_bucket_seq ON outbox (bucket, seq) WHERE published_at IS NULL"
        });
    all.put("v7-noseqidx", all.get("v7"));
    ddl.put(
        "v7-noseqidx",
        new String[] {
          "ALTER TABLE outbox DROP CONSTRAINT outbox_seq_key",
          "ALTER TABLE outbox ADD CONSTRAINT outbox_seq_key UNIQUE (seq)"
        });
    String[] variants = System.getProperty("outbox.bench.abVariants", "plain,random,v7").split(",");
    for (var e : dbs.entrySet()) {
      for (int threads : threadCounts) {
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        Map<String, List<Double>> wal = new LinkedHashMap<>();
        try (Db db = new Db(e.getValue(), e.getKey())) {
          bench.run(db, threads, all.get("v7"), Duration.ofSeconds(2)); // warm-up
          for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < variants.length; i++) {
              String v = variants[(i + r) % variants.length];
              boolean pg = e.getValue().dialect() == SqlDialect.POSTGRESQL;
              long lsn0 = pg ? db.count("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn") : 0;
              if (ddl.containsKey(v)) {
                db.execute(ddl.get(v)[0]);
              }
              double rate = bench.run(db, threads, all.get(v), slice);
              if (ddl.containsKey(v)) {
                db.execute(ddl.get(v)[1]);
              }
              long lsn1 = pg ? db.count("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn") : 0;
              double walPerTx = pg ? (lsn1 - lsn0) / (rate * slice.toMillis() / 1000.0) : 0;
              rates.computeIfAbsent(v, k -> new ArrayList<>()).add(rate);
              wal.computeIfAbsent(v, k -> new ArrayList<>()).add(walPerTx);
              System.out.printf(
                  "  %s t%d round %d %-14s %7.0f tx/s%s%n",
                  e.getKey(),
                  threads,
                  r + 1,
                  v,
                  rate,
                  pg ? String.format(" %6.0f WAL B/tx", walPerTx) : "");
            }
          }
        }
        double plain = Stats.of(rates.get(variants[0])).median();
        // Paired: each round's rate over the same round's first variant, then the median of those,
        // so a round slowed by the machine for every variant does not skew the ratio.
        Map<String, List<Double>> paired = new LinkedHashMap<>();
        for (String v : variants) {
          for (int r = 0; r < rounds; r++) {
            paired
                .computeIfAbsent(v, k -> new ArrayList<>())
                .add(rates.get(v).get(r) / rates.get(variants[0]).get(r));
          }
        }
        StringBuilder line = new StringBuilder(e.getKey() + " t" + threads + ":");
        for (String v : variants) {
          double m = Stats.of(rates.get(v)).median();
          line.append(
              String.format(
                  " %s %.0f tx/s (%.2f, paired %.2f)",
                  v, m, m / plain, Stats.of(paired.get(v)).median()));
          if (e.getValue().dialect() == SqlDialect.POSTGRESQL) {
            line.append(String.format(" %.0f WAL B/tx;", Stats.of(wal.get(v)).median()));
          }
        }
        System.out.println(line);
      }
    }
    System.exit(0);
  }
}
