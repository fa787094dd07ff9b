package dev.outboxrelay.relay.engine.archfixture;

import dev.outboxrelay.relay.polling.PollingRelay;

/** Breaks the relay-state rule on purpose (shared state reaching into one relay), for tests. */
public final class EngineThatImportsThePollingRelay {
  private EngineThatImportsThePollingRelay() {}

  public static String nameOf(PollingRelay relay) {
    return relay.name();
  }
}
