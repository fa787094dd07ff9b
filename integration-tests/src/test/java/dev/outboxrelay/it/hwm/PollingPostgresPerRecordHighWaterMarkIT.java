package dev.outboxrelay.it.hwm;

/**
 * As {@link PollingPostgresHighWaterMarkIT} with the consumer's per-record path ({@code
 * perRecord(true)}: one transaction per record, the mark advanced one message at a time), which
 * batch mode replaced as the default.
 */
class PollingPostgresPerRecordHighWaterMarkIT extends PollingPostgresHighWaterMarkIT {
  @Override
  boolean perRecord() {
    return true;
  }
}
