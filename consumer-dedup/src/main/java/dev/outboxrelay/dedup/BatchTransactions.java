package dev.outboxrelay.dedup;

import dev.outboxrelay.dedup.internal.MessageSpans;
import dev.outboxrelay.dedup.internal.SpanScope;
import dev.outboxrelay.dedup.internal.TracedMessage;
import dev.outboxrelay.dedup.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs a batch in one local transaction and, when the handler fails, splits it so the messages
 * before the failing one commit exactly once: at the index a {@link DedupBatchItemException} names,
 * else by halves (a single bad message among n costs about 2·log2(n) transactions).
 */
final class BatchTransactions<M> implements BatchHandler<M> {
  private final Dedup dedup;
  private final Function<? super M, MessageIdentity> identity;
  private final Function<? super M, TracedMessage> trace; // null: no spans
  private final DedupBatchHandler<M> handler;
  private final TransactionRunner runner; // null: the store's own, with retries on deadlock

  BatchTransactions(
      Dedup dedup,
      Function<? super M, MessageIdentity> identity,
      Function<? super M, TracedMessage> trace,
      DedupBatchHandler<M> handler,
      TransactionRunner runner) {
    this.dedup = dedup;
    this.identity = identity;
    this.trace = dedup.spans() == MessageSpans.NONE ? null : trace;
    this.handler = handler;
    this.runner = runner;
  }

  @Override
  public BatchOutcome handle(List<M> messages) {
    List<MessageIdentity> ids = new ArrayList<>(messages.size());
    RuntimeException invalid = null;
    for (M m : messages) {
      try {
        ids.add(identity.apply(m));
      } catch (RuntimeException e) {
        invalid = e; // a message without a usable id: the batch ends before it
        break;
      }
    }
    BatchOutcome outcome = run(messages.subList(0, ids.size()), ids);
    if (outcome.complete() && invalid != null) {
      return new BatchOutcome(outcome.outcomes(), invalid);
    }
    return outcome;
  }

  private BatchOutcome run(List<M> messages, List<MessageIdentity> ids) {
    if (messages.isEmpty()) {
      return new BatchOutcome(List.of(), null);
    }
    List<Outcome> outcomes;
    try {
      outcomes = inTransaction(ids, (c, joined) -> once(c, messages, ids, joined));
    } catch (HandlerFailed f) {
      // Joined: the transaction it joined is doomed, so nothing commits; redeliver from the start.
      return f.joined ? failed(ids, List.of(), 0, f) : split(messages, ids, f);
    } catch (RuntimeException e) {
      dedup.failed(ids.get(0), e);
      return new BatchOutcome(List.of(), e);
    }
    Runnable report =
        () -> {
          for (int i = 0; i < outcomes.size(); i++) {
            dedup.committed(ids.get(i), outcomes.get(i));
          }
        };
    if (runner != null) {
      runner.afterCommit(report);
    } else {
      report.run();
    }
    return new BatchOutcome(outcomes, null);
  }

  private BatchOutcome split(List<M> messages, List<MessageIdentity> ids, HandlerFailed f) {
    int at = f.index;
    if (at < 0 && messages.size() > 1) {
      int mid = messages.size() / 2;
      BatchOutcome first = run(messages.subList(0, mid), ids.subList(0, mid));
      return first.complete()
          ? then(first, run(messages.subList(mid, messages.size()), ids.subList(mid, ids.size())))
          : first;
    }
    int failedAt = Math.max(at, 0);
    BatchOutcome before = run(messages.subList(0, failedAt), ids.subList(0, failedAt));
    return before.complete() ? failed(ids, before.outcomes(), failedAt, f) : before;
  }

  private BatchOutcome failed(
      List<MessageIdentity> ids, List<Outcome> committed, int failedAt, HandlerFailed f) {
    MessageIdentity failed = ids.get(failedAt);
    DedupHandlerException e = new DedupHandlerException(failed.id(), f.getCause());
    dedup.failed(failed, e);
    return new BatchOutcome(committed, e);
  }

  private <T> T inTransaction(List<MessageIdentity> ids, TransactionRunner.Work<T> work) {
    if (runner != null) {
      return runner.inTransaction(work);
    }
    return Transactions.run(
        dedup.store().dataSource(),
        dedup.maxAttempts(),
        dedup.retryBackoff(),
        (attempt, e) -> dedup.retrying(ids.get(0), attempt, e),
        c -> work.apply(c, false));
  }

  private static BatchOutcome then(BatchOutcome first, BatchOutcome second) {
    List<Outcome> all = new ArrayList<>(first.outcomes());
    all.addAll(second.outcomes());
    return new BatchOutcome(all, second.failure());
  }

  private List<Outcome> once(
      Connection c, List<M> messages, List<MessageIdentity> ids, boolean joined)
      throws SQLException {
    List<Outcome> outcomes = dedup.claimSilently(c, ids);
    List<Integer> fresh = new ArrayList<>();
    List<M> toHandle = new ArrayList<>();
    for (int i = 0; i < outcomes.size(); i++) {
      if (outcomes.get(i) == Outcome.PROCESSED) {
        fresh.add(i);
        toHandle.add(messages.get(i));
      }
    }
    if (trace != null) {
      skipped(messages, outcomes);
    }
    if (toHandle.isEmpty()) {
      return outcomes;
    }
    if (trace != null && handler instanceof EachHandler<M> each) {
      eachInItsSpan(c, each.handler(), toHandle, fresh, joined);
      return outcomes;
    }
    try (SpanScope span = batchSpan(toHandle)) {
      try {
        handler.handle(c, toHandle);
      } catch (DedupBatchItemException e) {
        int i = e.index();
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        span.failed(cause);
        throw new HandlerFailed(i >= 0 && i < fresh.size() ? fresh.get(i) : -1, cause, joined);
      } catch (Exception e) {
        span.failed(e);
        throw new HandlerFailed(fresh.size() == 1 ? fresh.get(0) : -1, e, joined);
      }
    }
    return outcomes;
  }

  /** One span per message, parented to the message's trace context. */
  private void eachInItsSpan(
      Connection c, DedupHandler<M> each, List<M> toHandle, List<Integer> fresh, boolean joined) {
    for (int i = 0; i < toHandle.size(); i++) {
      M m = toHandle.get(i);
      try (SpanScope span = dedup.spans().message(trace.apply(m))) {
        try {
          each.handle(c, m);
          span.outcome(Dedup.outcomeName(Outcome.PROCESSED));
        } catch (Exception e) {
          span.failed(e);
          throw new HandlerFailed(fresh.get(i), e, joined);
        }
      }
    }
  }

  private SpanScope batchSpan(List<M> toHandle) {
    if (trace == null) {
      return SpanScope.NONE;
    }
    List<TracedMessage> traced = new ArrayList<>(toHandle.size());
    toHandle.forEach(m -> traced.add(trace.apply(m)));
    return dedup.spans().batch(traced);
  }

  /** A duplicate or stale message of the batch: a span of its own, with its outcome. */
  private void skipped(List<M> messages, List<Outcome> outcomes) {
    for (int i = 0; i < outcomes.size(); i++) {
      if (outcomes.get(i) != Outcome.PROCESSED) {
        try (SpanScope span = dedup.spans().message(trace.apply(messages.get(i)))) {
          span.outcome(Dedup.outcomeName(outcomes.get(i)));
        }
      }
    }
  }

  /**
   * The handler failed; {@code index} in the batch, or -1 when the handler did not say; {@code
   * joined}: in a transaction that was already running, which the failure dooms.
   */
  private static final class HandlerFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int index;
    final boolean joined;

    HandlerFailed(int index, Throwable cause, boolean joined) {
      super(cause);
      this.index = index;
      this.joined = joined;
    }
  }
}
