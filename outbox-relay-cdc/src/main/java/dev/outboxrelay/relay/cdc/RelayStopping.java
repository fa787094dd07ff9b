package dev.outboxrelay.relay.cdc;

/**
 * Thrown inside the relay when {@link CdcRelay#close()} has begun: the work in progress ends
 * without sending or marking anything more. Not a thread interrupt, so whoever catches it leaves
 * the thread's interrupt flag alone: the engine's polling thread must go on draining Debezium's
 * queue.
 */
final class RelayStopping extends InterruptedException {
  private static final long serialVersionUID = 1L;

  RelayStopping(String relayName) {
    super(relayName + " is stopping");
  }
}
