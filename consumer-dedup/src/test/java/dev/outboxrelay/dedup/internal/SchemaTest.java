package dev.outboxrelay.dedup.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.SqlDialect;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaTest {
  private static final Map<String, String> DEDUP =
      Map.of("dedup_table", "t", "dedup_processed_index", "i", "dedup_hwm_table", "h");

  @Test
  void scriptsRenderToPlainStatementsWithEveryPlaceholderReplaced() {
    for (SqlDialect dialect : SqlDialect.values()) {
      List<String> dedup =
          Schema.statements(Schema.render(dialect, "dedup", "V1__create_dedup.sql", DEDUP));
      List<String> keys =
          Schema.statements(
              Schema.render(
                  dialect,
                  "idempotency",
                  "V1__create_idempotency.sql",
                  Map.of("idempotency_table", "k", "idempotency_completed_index", "ki")));
      assertThat(dedup).hasSize(dialect == SqlDialect.POSTGRESQL ? 3 : 2);
      assertThat(keys).hasSize(dialect == SqlDialect.POSTGRESQL ? 2 : 1);
      assertThat(String.join("\n", dedup) + String.join("\n", keys))
          .doesNotContain("${")
          .doesNotContain("--")
          .doesNotContain(";");
    }
  }

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
