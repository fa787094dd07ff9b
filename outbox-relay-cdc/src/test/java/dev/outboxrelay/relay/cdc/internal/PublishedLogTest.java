package dev.outboxrelay.relay.cdc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.BatchUpdateException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class PublishedLogTest {
  private final PublishedLog log = new PublishedLog("INSERT INTO log (ids) VALUES (?)");

  @Test
  void aRefusedPositionIsClearedByTheNextStoredOne() {
    log.saveFailed("permission denied for table outbox_cdc_offsets", false);
    assertThat(log.saveFailure()).contains("outbox_cdc_offsets");
    log.saved(false); // a heartbeat's position
    assertThat(log.saveFailure()).isNull();
  }

  @Test
  void aRefusedLogIsClearedOnlyByASaveThatWroteTheLog() {
    log.saveFailed("permission denied for table outbox_cdc_published", true);
    log.saved(false); // a heartbeat: no batch to log, so the refused insert was not tried
    assertThat(log.saveFailure()).contains("outbox_cdc_published");
    log.saved(true);
    assertThat(log.saveFailure()).isNull();
  }

  @Test
  void aNewEngineStartsWithoutTheFailureOfTheOneBefore() {
    log.saveFailed("refused", true);
    log.restarted();
    assertThat(log.saveFailure()).isNull();
  }

  @Test
  void theReasonIsTheDriversNextExceptionMaskedAndShort() {
    BatchUpdateException batch =
        new BatchUpdateException(
            "Batch entry 0 INSERT INTO outbox_cdc_published (ids) VALUES ('\\x"
                + "ab".repeat(5000)
                + "') was aborted",
            new int[0]);
    batch.setNextException(new SQLException("ERROR: permission denied for table x", "42501"));
    assertThat(PublishedLog.reason(batch))
        .isEqualTo("java.sql.SQLException: ERROR: permission denied for table x");
    String longOne = PublishedLog.reason(new SQLException("x".repeat(1000) + " password=hunter2"));
    assertThat(longOne).hasSize(300).endsWith("...");
    assertThat(PublishedLog.reason(new SQLException("url jdbc:x://h/db?password=hunter2")))
        .doesNotContain("hunter2");
  }
}
