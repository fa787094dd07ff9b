package dev.outboxrelay.benchmarks.archfixture;

import dev.outboxrelay.servers.internal.Ports;

/** Uses another module's internal package on purpose, for DependencyRulesSelfTest. */
public final class BenchmarkUsingServerInternals {
  @Override
  public String toString() {
    return String.valueOf(Ports.free());
  }
}
