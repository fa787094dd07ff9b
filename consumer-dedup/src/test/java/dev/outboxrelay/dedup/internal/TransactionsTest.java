package dev.outboxrelay.dedup.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Retries of consumer-dedup transactions: which failures, and how long between attempts. */
class TransactionsTest {
  @Test
  void backoffDoublesWithJitterUpToTheMaximum() {
    Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1));
    for (int i = 0; i < 50; i++) {
      assertThat(backoff.delay(1)).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
      assertThat(backoff.delay(3)).isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
      assertThat(backoff.delay(64)).isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
    }
  }

  @Test
  void onlyDeadlocksAndSerializationFailuresAreRetryable() {
    var deadlock = new java.sql.SQLException("deadlock", "40P01");
    assertThat(Transactions.isRetryable(new RuntimeException(deadlock))).isTrue();
    assertThat(Transactions.isRetryable(new java.sql.SQLException("x", "40001"))).isTrue();
    assertThat(Transactions.isRetryable(new java.sql.SQLException("lock", "HY000", 1213))).isTrue();
    assertThat(Transactions.isRetryable(new java.sql.SQLException("dup", "23505"))).isFalse();
    assertThat(Transactions.isRetryable(new IllegalStateException())).isFalse();
  }
}
