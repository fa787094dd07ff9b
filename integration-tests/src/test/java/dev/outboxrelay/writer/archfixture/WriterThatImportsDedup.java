package dev.outboxrelay.writer.archfixture;

import dev.outboxrelay.dedup.archfixture.DedupThatImportsTheWriter;

/**
 * With DedupThatImportsTheWriter: a sibling dependency and a cycle, for DependencyRulesSelfTest.
 */
public final class WriterThatImportsDedup {
  DedupThatImportsTheWriter other;
}
