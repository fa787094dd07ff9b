package dev.outboxrelay.rocketmqtx.archfixture;

import dev.outboxrelay.relay.polling.PollingRelay;

/** Breaks the transactional outbox's rule on purpose (reaching into a relay), for tests. */
public final class TransactionalOutboxThatImportsARelay {
  private TransactionalOutboxThatImportsARelay() {}

  public static String nameOf(PollingRelay relay) {
    return relay.name();
  }
}
