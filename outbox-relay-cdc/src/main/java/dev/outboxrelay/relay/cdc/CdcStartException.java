package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxException;

/**
 * The Debezium engine failed before the stream's first position was established: a setting or a
 * privilege the connector or its stores refuse (e.g. {@code wal_level} not {@code logical}, no
 * replication privilege). {@link CdcRelay#start()} throws it after stopping the relay and releasing
 * the source lock; retrying does not help until the cause is fixed. The message is masked.
 */
public class CdcStartException extends OutboxException {
  private static final long serialVersionUID = 1L;

  public CdcStartException(String message) {
    super(message);
  }
}
