package dev.outboxrelay.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DrainProgressTest {
  private final AtomicLong now = new AtomicLong();
  private final DrainProgress progress = new DrainProgress("orders", now::get);

  private Optional<String> at(long seconds, long backlog, double published, int parked) {
    now.set(Duration.ofSeconds(seconds).toNanos());
    return progress.sampled(backlog, published, Duration.ofSeconds(7), parked);
  }

  @Test
  void aMovingBacklogIsReportedEveryFiveSecondsWithItsRateThenOnceDrained() {
    assertThat(at(0, 1000, 0, 0)).isEmpty(); // the baseline
    assertThat(at(2, 800, 200, 0)).isEmpty();
    assertThat(at(5, 500, 500, 0))
        .contains(
            "Relay orders - backlog: 500 pending, 100 msg/s published, oldest pending 7000 ms,"
                + " parked keys 0");
    assertThat(at(8, 200, 800, 0)).isEmpty();
    assertThat(at(10, 100, 900, 0)).hasValueSatisfying(l -> l.contains("80 msg/s"));
    assertThat(at(12, 0, 1000, 0)).contains("Relay orders - backlog drained");
    assertThat(at(14, 0, 1000, 0)).isEmpty();
  }

  @Test
  void aBacklogThatDoesNotMoveIsReportedOnceThenEveryMinute() {
    assertThat(at(0, 3, 20, 1)).isEmpty();
    assertThat(at(6, 3, 20, 1)).hasValueSatisfying(l -> l.contains("3 pending, 0 msg/s"));
    assertThat(at(12, 3, 20, 1)).isEmpty();
    assertThat(at(60, 3, 20, 1)).isEmpty();
    assertThat(at(67, 3, 20, 1)).hasValueSatisfying(l -> l.contains("parked keys 1"));
  }
}
