package dev.outboxrelay.it.correctness;

import dev.outboxrelay.dedup.DedupBatchHandler;
import dev.outboxrelay.dedup.DedupBatchItemException;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import java.sql.PreparedStatement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The consumers' batch handler, with injected failures: it writes a call's effect rows in one JDBC
 * batch, but about 1 message in 100 (chosen by id) fails every time it is handled until the dedup
 * listener was told of its failure, i.e. until the batch transaction committed the messages before
 * it and handed it back for redelivery (Kafka: seek and pause the partition; RocketMQ: suspend the
 * queue). Half of them name their index ({@link DedupBatchItemException}); the other half throw a
 * plain exception, so the batch is split in halves until the failing message is found. The rows of
 * the messages before it are written before it throws, so a rollback that did not happen would show
 * as duplicate effects. Either way the prefix-commit path runs, and the checker judges it (a prefix
 * message applied twice or never is a duplicate or missing effect). Also the dedup's listener:
 * counts, then delegates to {@code next}. Thread-safe.
 */
final class HandlerFaults implements DedupListener {
  private final DedupListener next;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger handled = new AtomicInteger();
  private final AtomicInteger thrown = new AtomicInteger();
  private final AtomicInteger midBatch = new AtomicInteger();
  private final AtomicInteger failures = new AtomicInteger();

  HandlerFaults(DedupListener next) {
    this.next = next;
  }

  /** The batch handler: one effect row per new message, failing as described above. */
  <M> DedupBatchHandler<M> handler(Function<M, MessageIdentity> identity) {
    return (c, messages) -> {
      calls.incrementAndGet();
      handled.addAndGet(messages.size());
      try (PreparedStatement ps =
          c.prepareStatement("INSERT INTO effect (message_id, k) VALUES (?, ?)")) {
        for (int i = 0; i < messages.size(); i++) {
          MessageIdentity id = identity.apply(messages.get(i));
          if (Math.floorMod(id.id().hashCode(), 100) == 0 && !reported.contains(id.id())) {
            thrown.incrementAndGet();
            if (i > 0) {
              midBatch.incrementAndGet(); // new messages before it: the prefix path commits them
            }
            // The rows before it reach the database first, so a split that did not roll this
            // attempt back would leave them twice, and the checker would see it.
            ps.executeBatch();
            RuntimeException e = new IllegalStateException("injected failure of " + id.id());
            throw Math.floorMod(id.id().hashCode(), 200) == 0
                ? new DedupBatchItemException(i, e)
                : e;
          }
          ps.setString(1, id.id());
          ps.setString(2, id.key());
          ps.addBatch();
        }
        ps.executeBatch();
      }
    };
  }

  @Override
  public void onFailure(String group, MessageIdentity message, Exception failure) {
    failures.incrementAndGet();
    reported.add(message.id());
    next.onFailure(group, message, failure);
  }

  @Override
  public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
    next.onOutcome(group, message, outcome);
  }

  @Override
  public void onRetry(String group, MessageIdentity message, int attempt, Exception failure) {
    next.onRetry(group, message, attempt, failure);
  }

  @Override
  public void onUnorderedSequence(String group, MessageIdentity message) {
    next.onUnorderedSequence(group, message);
  }

  /** Failures the consumers reported (injected ones and any other). */
  int failures() {
    return failures.get();
  }

  @Override
  public String toString() {
    return String.format(
        "failures=%d (injected throws %d, %d mid-batch) calls=%d new/call=%.1f",
        failures.get(),
        thrown.get(),
        midBatch.get(),
        calls.get(),
        calls.get() == 0 ? 0.0 : handled.get() / (double) calls.get());
  }
}
