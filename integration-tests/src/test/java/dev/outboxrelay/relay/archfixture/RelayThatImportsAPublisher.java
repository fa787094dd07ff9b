package dev.outboxrelay.relay.archfixture;

import dev.outboxrelay.publisher.archfixture.FakeKafkaPublisher;

/** Breaks the dependency rule on purpose, for DependencyRulesSelfTest. */
public final class RelayThatImportsAPublisher {
  private final FakeKafkaPublisher publisher = new FakeKafkaPublisher();

  @Override
  public String toString() {
    return publisher.toString();
  }
}
