package dev.outboxrelay.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PurgeTest {
  private final AtomicLong now = new AtomicLong();
  private final List<Integer> statements = new ArrayList<>();
  private int kept = 2_500;

  private int delete(Duration window, int limit) {
    int deleted = Math.min(kept, limit);
    kept -= deleted;
    statements.add(deleted);
    return deleted;
  }

  @Test
  void deletesInBoundedStatementsAtMostOncePerInterval() throws Exception {
    Purge purge = new Purge(Retention.keepFor(Duration.ofMinutes(5)), this::delete, now::get);
    assertThat(purge.runIfDue()).isEqualTo(2_500);
    assertThat(statements).containsExactly(1000, 1000, 500);

    kept = 10;
    now.addAndGet(Duration.ofSeconds(29).toNanos());
    assertThat(purge.runIfDue()).as("not due before 30 s").isZero();
    now.addAndGet(Duration.ofSeconds(1).toNanos());
    assertThat(purge.runIfDue()).isEqualTo(10);
  }

  @Test
  void aShortWindowIsPurgedAsOftenAsItLasts() throws Exception {
    Purge purge = new Purge(Retention.keepFor(Duration.ofSeconds(2)), this::delete, now::get);
    purge.runIfDue();
    kept = 1;
    now.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(purge.runIfDue()).isEqualTo(1);
  }

  @Test
  void rowsDeletedAtTheirMarkAreNeverPurged() throws Exception {
    Purge purge = new Purge(Retention.deleteImmediately(), this::delete, now::get);
    assertThat(purge.runIfDue()).isZero();
    assertThat(statements).isEmpty();
  }
}
