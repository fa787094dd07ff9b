package dev.outboxrelay.dedup;

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
  private final DedupBatchHandler<M> handler;

  BatchTransactions(
      Dedup dedup, Function<? super M, MessageIdentity> identity, DedupBatchHandler<M> handler) {
    this.dedup = dedup;
    this.identity = identity;
    this.handler = handler;
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
      outcomes =
          Transactions.run(
              dedup.store().dataSource(),
              dedup.maxAttempts(),
              dedup.retryBackoff(),
              (attempt, e) -> dedup.retrying(ids.get(0), attempt, e),
              c -> once(c, messages, ids));
    } catch (HandlerFailed f) {
      return split(messages, ids, f);
    } catch (RuntimeException e) {
      dedup.failed(ids.get(0), e);
      return new BatchOutcome(List.of(), e);
    }
    for (int i = 0; i < outcomes.size(); i++) {
      dedup.committed(ids.get(i), outcomes.get(i));
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
    BatchOutcome before =
        run(messages.subList(0, Math.max(at, 0)), ids.subList(0, Math.max(at, 0)));
    if (!before.complete()) {
      return before;
    }
    MessageIdentity failed = ids.get(Math.max(at, 0));
    DedupHandlerException e = new DedupHandlerException(failed.id(), f.getCause());
    dedup.failed(failed, e);
    return new BatchOutcome(before.outcomes(), e);
  }

  private static BatchOutcome then(BatchOutcome first, BatchOutcome second) {
    List<Outcome> all = new ArrayList<>(first.outcomes());
    all.addAll(second.outcomes());
    return new BatchOutcome(all, second.failure());
  }

  private List<Outcome> once(Connection c, List<M> messages, List<MessageIdentity> ids)
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
    if (toHandle.isEmpty()) {
      return outcomes;
    }
    try {
      handler.handle(c, toHandle);
    } catch (DedupBatchItemException e) {
      int i = e.index();
      throw new HandlerFailed(i >= 0 && i < fresh.size() ? fresh.get(i) : -1, e.getCause());
    } catch (Exception e) {
      throw new HandlerFailed(fresh.size() == 1 ? fresh.get(0) : -1, e);
    }
    return outcomes;
  }

  /** The handler failed; {@code index} in the batch, or -1 when the handler did not say. */
  private static final class HandlerFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int index;

    HandlerFailed(int index, Throwable cause) {
      super(cause);
      this.index = index;
    }
  }
}
