package dev.outboxrelay.relay.cdc.internal.debezium;

import static org.assertj.core.api.Assertions.assertThat;

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
}
