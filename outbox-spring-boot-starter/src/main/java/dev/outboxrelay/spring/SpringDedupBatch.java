package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.dedup.BatchOutcome;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupBatchItemException;
import dev.outboxrelay.dedup.DedupHandlerException;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One batch of {@link SpringDedup#handleBatch}: claims the ids and runs the work on the new
 * messages in one transaction of the application's transaction manager. If the work fails, the
 * batch rolls back and runs again split, each part in its own transaction, so the messages before
 * the failing one commit once: at the index a {@link DedupBatchItemException} names, else by
 * halves. Inside a transaction that was already running nothing can commit on its own, so nothing
 * is split: the failure is reported at the first message and the caller's transaction rolls back.
 */
final class SpringDedupBatch<M> {
  private final Dedup dedup;
  private final DataSource dataSource;
  private final TransactionTemplate transactions;
  private final List<DedupListener> listeners;
  private final SpringDedup.BatchWork<M> work;

  SpringDedupBatch(
      Dedup dedup,
      DataSource dataSource,
      TransactionTemplate transactions,
      List<DedupListener> listeners,
      SpringDedup.BatchWork<M> work) {
    this.dedup = dedup;
    this.dataSource = dataSource;
    this.transactions = transactions;
    this.listeners = listeners;
    this.work = work;
  }

  BatchOutcome run(List<M> messages, List<MessageIdentity> ids) {
    if (messages.isEmpty()) {
      return new BatchOutcome(List.of(), null);
    }
    List<Outcome> outcomes;
    try {
      outcomes = transactions.execute(status -> once(messages, ids, !status.isNewTransaction()));
    } catch (HandlerFailed f) {
      return f.joined ? failed(ids, List.of(), Math.max(f.index, 0), f) : split(messages, ids, f);
    } catch (RuntimeException | Error e) {
      listeners.forEach(l -> l.onFailure(dedup.group(), ids.get(0), asException(e)));
      if (e instanceof Error err) {
        throw err;
      }
      return new BatchOutcome(List.of(), (RuntimeException) e);
    }
    for (int i = 0; i < outcomes.size(); i++) {
      MessageIdentity id = ids.get(i);
      Outcome outcome = outcomes.get(i);
      listeners.forEach(l -> l.onOutcome(dedup.group(), id, outcome));
    }
    return new BatchOutcome(outcomes, null);
  }

  private BatchOutcome split(List<M> messages, List<MessageIdentity> ids, HandlerFailed f) {
    int at = f.index;
    if (at < 0 && messages.size() > 1) {
      int mid = messages.size() / 2;
      BatchOutcome first = run(messages.subList(0, mid), ids.subList(0, mid));
      if (!first.complete()) {
        return first;
      }
      BatchOutcome second =
          run(messages.subList(mid, messages.size()), ids.subList(mid, ids.size()));
      List<Outcome> all = new ArrayList<>(first.outcomes());
      all.addAll(second.outcomes());
      return new BatchOutcome(all, second.failure());
    }
    int failedAt = Math.max(at, 0);
    BatchOutcome before = run(messages.subList(0, failedAt), ids.subList(0, failedAt));
    return before.complete() ? failed(ids, before.outcomes(), failedAt, f) : before;
  }

  private BatchOutcome failed(
      List<MessageIdentity> ids, List<Outcome> committed, int failedAt, HandlerFailed f) {
    MessageIdentity id = ids.get(failedAt);
    // The handler's own exception, as SpringDedup.handle throws it; a checked one wrapped.
    RuntimeException failure =
        f.getCause() instanceof RuntimeException r
            ? r
            : new DedupHandlerException(id.id(), f.getCause());
    listeners.forEach(l -> l.onFailure(dedup.group(), id, failure));
    return new BatchOutcome(committed, failure);
  }

  private List<Outcome> once(List<M> messages, List<MessageIdentity> ids, boolean joined) {
    List<Outcome> outcomes;
    Connection connection = DataSourceUtils.getConnection(dataSource);
    try {
      outcomes = dedup.claim(connection, ids);
    } catch (SQLException e) {
      throw new OutboxDatabaseException(
          "Dedup of a batch of " + ids.size() + " messages failed", e);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
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
      work.run(toHandle);
    } catch (DedupBatchItemException e) {
      int i = e.index();
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new HandlerFailed(i >= 0 && i < fresh.size() ? fresh.get(i) : -1, cause, joined);
    } catch (Exception e) {
      throw new HandlerFailed(fresh.size() == 1 ? fresh.get(0) : -1, e, joined);
    }
    return outcomes;
  }

  private static Exception asException(Throwable t) {
    return t instanceof Exception e ? e : new RuntimeException(t);
  }

  /**
   * The work failed; {@code index} in the batch, or -1 when the work did not say; {@code joined}:
   * in a transaction that was already running, which the failure dooms.
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
