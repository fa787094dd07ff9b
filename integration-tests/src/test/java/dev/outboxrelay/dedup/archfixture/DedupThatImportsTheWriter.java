package dev.outboxrelay.dedup.archfixture;

import dev.outboxrelay.writer.archfixture.WriterThatImportsDedup;

/** With WriterThatImportsDedup: a sibling dependency and a cycle, for DependencyRulesSelfTest. */
public final class DedupThatImportsTheWriter {
  WriterThatImportsDedup other;
}
