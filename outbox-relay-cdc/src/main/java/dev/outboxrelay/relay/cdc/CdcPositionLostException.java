package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxException;

/**
 * The stored binlog/WAL position can no longer be read (binlog purged, replication slot dropped).
 * The relay refuses to start rather than silently skipping or re-snapshotting. To reconcile: {@link
 * CdcRelay#resetPosition()}, then start: the relay first publishes every row still pending in the
 * outbox table (at least once), then streams from the current position.
 */
public class CdcPositionLostException extends OutboxException {
  private static final long serialVersionUID = 1L;

  public CdcPositionLostException(String message) {
    super(message);
  }
}
