package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxException;

/**
 * The stored binlog/WAL position can no longer be read (binlog purged, replication slot dropped).
 * The relay refuses to start rather than silently skipping or re-snapshotting. To reconcile:
 * publish what is still pending in the outbox table ({@link CdcRelay#republishPending()}, at least
 * once), then {@link CdcRelay#resetPosition()} to start streaming from the current position.
 */
public class CdcPositionLostException extends OutboxException {
  private static final long serialVersionUID = 1L;

  public CdcPositionLostException(String message) {
    super(message);
  }
}
