package dev.outboxrelay.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

  @Test
  void statsTakeTheMedianWithMinAndMax() {
    assertThat(Stats.of(List.of(3.0, 1.0, 2.0))).isEqualTo(new Stats(2.0, 1.0, 3.0, 3));
    assertThat(Stats.of(List.of(4.0, 1.0, 2.0, 3.0)).median()).isEqualTo(2.5);
    assertThat(Stats.of(List.of(5.0)).ratioTo(Stats.of(List.of(10.0)))).isEqualTo(0.5);
    assertThatThrownBy(() -> Stats.of(List.of())).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reportShowsRatiosToKafkaAndPeersAndWhetherTargetsAreMet(@TempDir Path dir) throws Exception {
    Report r = new Report();
    r.fact("profile", "test");
    r.add(new Figure("kafka.raw", "K", "msg/s", List.of(100_000.0, 90_000.0, 110_000.0), "k"));
    r.add(new Figure("drain.polling.postgresql", "polling pg", "msg/s", List.of(40_000.0), "p"));
    r.add(new Figure("drain.gruelbox.postgresql", "gruelbox pg", "msg/s", List.of(10_000.0), "g"));
    r.add(new Figure("latency.polling-notify.postgresql.p99", "notify", "ms", List.of(30.0), "o"));
    r.add(new Figure("latency.polling-notify.postgresql.p50", "notify", "ms", List.of(5.0), "o"));
    r.add(new Figure("dedup.kafka.batch.postgresql", "d", "msg/s", List.of(50_000.0), "d"));
    r.add(new Figure("dedup.kafka.batch-insert.postgresql", "i", "msg/s", List.of(30_000.0), "i"));
    r.add(new Figure("dedup.kafka.raw-insert-loop.postgresql", "a", "msg/s", List.of(40e3), "a"));
    r.add(new Figure("dedup.kafka.batch.mariadb", "dm", "msg/s", List.of(9_000.0), "dm"));
    r.load("kafka", "load average: 1.00");
    r.write(dir);

    String md = Files.readString(dir.resolve("benchmark-report.md"));
    assertThat(md)
        .contains("| K | 100,000 | 90,000–110,000 | 3 | 1.00× | k |")
        .contains("| polling pg | 40,000 | 40,000–40,000 | 1 | 0.40× | p |")
        .contains("| postgresql | polling | 40,000 | gruelbox | 10,000 | 4.00× |")
        .contains("| polling drain PostgreSQL ≥ 0.35 × K | 0.40 ×K | yes |")
        .contains("| polling drain PostgreSQL ≥ 2 × best peer | 4.00 × | yes |")
        .contains("| commit → ack p99 ≤ 25 ms with NOTIFY | 30.00 ms | no |")
        .contains("| dedup consumer batch no-op PostgreSQL ≥ 1.5 × polling drain | 1.25 × | no |")
        .contains(
            "| dedup consumer batch + INSERT per message PostgreSQL ≥ 1.0 × polling drain"
                + " | 0.75 × | no |")
        .contains(
            "| (anchor) dedup batch + INSERT per message PostgreSQL / raw JDBC INSERT loop"
                + " (raw loop = 1.00 × polling drain) | 0.75× | – |")
        .doesNotContain("no-op MariaDB") // no MariaDB drain in this run to compare with
        .contains("kafka: load average: 1.00");
    assertThat(Files.readString(dir.resolve("benchmark-report.json")))
        .contains("\"id\" : \"kafka.raw\"")
        .contains("\"median\" : 100000.0");
  }
}
