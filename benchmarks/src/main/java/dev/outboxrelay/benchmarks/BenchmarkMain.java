package dev.outboxrelay.benchmarks;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The load driver: starts private PostgreSQL, MariaDB and Kafka servers, measures every figure of
 * the report in one run and writes {@code benchmark-report.md} and {@code .json}. Run it with
 * {@code ./benchmarks/run [--quick]}.
 */
public final class BenchmarkMain {
  private BenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    Profile p = Profile.parse(args);
    Path out = Paths.get(System.getProperty("outbox.bench.out", "benchmarks/target/report"));
    Report report = new Report();
    report.fact("started", Instant.now().toString());
    report.fact("profile", p.name() + " (" + p.runs() + " runs per figure)");
    report.fact("backlog", p.backlog() + " rows of " + p.payloadBytes() + " B payload, 1000 keys");
    report.fact("machine", Machine.describe());
    report.fact("commit", Machine.gitCommit());
    report.fact("database settings", DbSettings.apply(p.fastDb()));
    Map<String, DatabaseServer> dbs =
        Map.of("postgresql", PostgresServer.shared(), "mariadb", MariaDbServer.shared());
    report.fact(
        "database settings (read back)",
        DbSettings.readBack(dbs.get("postgresql"), dbs.get("mariadb")));
    System.out.println("benchmark: " + report.facts());
    try (Kafka kafka = new Kafka(KafkaServer.shared())) {
      report.fact(
          "servers",
          "PostgreSQL and MariaDB private instances ("
              + (p.fastDb() ? "fast, not durable" : "durable")
              + "), Kafka 4.1.2 KRaft single node"
              + " (separate JVM, "
              + System.getProperty(
                  KafkaServer.JVM_ARGS_PROPERTY,
                  "-Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1: the test launcher's")
              + "),"
              + " topics of "
              + Kafka.PARTITIONS
              + " partitions");
      report.fact(
          "producer (every sender)",
          "idempotent, acks=all, linger.ms=5, batch.size=256 KiB, compression lz4");
      new Parts(p, report, kafka, dbs, out).runAll();
    }
    report.fact("finished", Instant.now().toString());
    report.write(out);
    System.out.println("report: " + out.resolve("benchmark-report.md").toAbsolutePath());
    System.exit(0); // engine and client threads of failed parts must not keep the JVM alive
  }

  static List<String> list(String... s) {
    return new ArrayList<>(List.of(s));
  }
}
