package dev.outboxrelay.it.correctness;

import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts what the in-JVM consumers' high-water mark did: STALE skips (each one a committed message
 * never applied, so the drain stops waiting for it and the checker reports it as a missing effect)
 * and messages deduped by id only because their writer had key order off.
 */
final class MarkOutcomes implements DedupListener {
  private final AtomicInteger stale = new AtomicInteger();
  private final AtomicInteger unordered = new AtomicInteger();

  @Override
  public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
    if (outcome == Outcome.STALE) {
      stale.incrementAndGet();
    }
  }

  @Override
  public void onUnorderedSequence(String group, MessageIdentity message) {
    unordered.incrementAndGet();
  }

  int stale() {
    return stale.get();
  }

  @Override
  public String toString() {
    return "stale=" + stale + " dedupOnly=" + unordered;
  }
}
