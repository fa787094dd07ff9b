package dev.outboxrelay.relay.cdc.internal.debezium;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class StoreFailuresTest {
  @Test
  void theReasonIsTheDriversNextExceptionMaskedAndShort() {
    BatchUpdateException batch =
        new BatchUpdateException(
            "Batch entry 0 INSERT INTO outbox_cdc_published (ids) VALUES ('\\x"
                + "ab".repeat(5000)
                + "') was aborted",
            new int[0]);
    batch.setNextException(new SQLException("ERROR: permission denied for table x", "42501"));
    assertThat(StoreFailures.reason(batch))
        .isEqualTo("java.sql.SQLException: ERROR: permission denied for table x");
    String longOne = StoreFailures.reason(new SQLException("x".repeat(1000) + " password=hunter2"));
    assertThat(longOne).hasSize(300).endsWith("...");
    assertThat(StoreFailures.reason(new SQLException("url jdbc:x://h/db?password=hunter2")))
        .doesNotContain("hunter2");
  }

  @Test
  void aFailedConfigurationNamesItsCauseAndNoSettingsOrSecret() {
    RuntimeException debeziums =
        new IllegalStateException(
            "Failed to connect JDBC offset backing store: {database.password=hunter2}",
            new SQLException("No suitable driver found for jdbc:x://h/db?password=hunter2"));
    IllegalStateException e = StoreFailures.configureFailed(debeziums);
    assertThat(e.getMessage())
        .startsWith("Failed to connect JDBC offset backing store: java.sql.SQLException")
        .doesNotContain("hunter2");
    assertThatThrownBy(
            () -> {
              throw StoreFailures.startFailed(
                  new RuntimeException("jdbc:x://h/db?password=hunter2"));
            })
        .hasMessageNotContaining("hunter2");
  }
}
