package dev.outboxrelay.publisher.archfixture;

/** Stands for a concrete publisher in DependencyRulesSelfTest. */
public final class FakeKafkaPublisher {}
