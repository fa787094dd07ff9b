package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.dedup.internal.Backoff;
import dev.outboxrelay.dedup.internal.MessageSpans;
import dev.outboxrelay.dedup.internal.SpanScope;
import dev.outboxrelay.dedup.internal.TracedMessage;
import dev.outboxrelay.dedup.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dedup for one consumer group: records each message id in the same local transaction as the
 * handler, so a redelivered message has no second effect. Decorates handlers the way resilience4j
 * decorates suppliers:
 *
 * <pre>{@code
 * Dedup dedup = Dedup.builder().store(store).group("billing").build();
 * MessageHandler<Order> handler = dedup.transactional(Order::identity, (connection, order) -> ...);
 * Outcome outcome = handler.handle(order); // PROCESSED, DUPLICATE or STALE, after commit
 * }</pre>
 *
 * Immutable and thread-safe; decorated handlers are thread-safe if the wrapped one is.
 */
public final class Dedup {
  private static final Logger LOG = LoggerFactory.getLogger(Dedup.class);

  private final DedupStore store;
  private final String group;
  private final boolean highWaterMark;
  private final int maxAttempts;
  private final Backoff backoff;
  private final DedupListener listener;
  private final MessageSpans spans;
  private final AtomicBoolean warnedUnordered = new AtomicBoolean();

  Dedup(DedupBuilder b) {
    this.store = b.store;
    this.group = b.group;
    this.highWaterMark = b.highWaterMark;
    this.maxAttempts = b.maxAttempts;
    this.backoff = new Backoff(b.backoffInitial, b.backoffMax);
    this.listener = b.listener;
    this.spans = MessageSpans.of(b.openTelemetry, b.group);
  }

  /** A builder; {@link DedupBuilder#store} and {@link DedupBuilder#group} are required. */
  public static DedupBuilder builder() {
    return new DedupBuilder();
  }

  /**
   * Same shape in, same shape out: the returned handler joins the caller's transaction on the
   * connection it is given, records the message id (and advances the high-water mark), and runs
   * {@code handler} only on first delivery. Use it inside your own transaction management; the
   * caller commits, rolls back and retries.
   */
  public <M> DedupHandler<M> decorate(
      Function<? super M, MessageIdentity> identity, DedupHandler<M> handler) {
    return (connection, message) -> {
      MessageIdentity id = identity.apply(message);
      reportUnordered(id, apply(connection, message, id, handler));
    };
  }

  /**
   * A handler that runs {@code handler} and the dedup record in one local transaction of the
   * store's data source, commits, and returns the outcome. Deadlocks and serialization failures
   * (SQLState 40001, 40P01) roll back and run again, up to {@code maxAttempts} in all.
   */
  public <M> MessageHandler<M> transactional(
      Function<? super M, MessageIdentity> identity, DedupHandler<M> handler) {
    return message -> {
      MessageIdentity id = identity.apply(message);
      try {
        Outcome outcome =
            Transactions.run(
                store.dataSource(),
                maxAttempts,
                backoff,
                (attempt, e) -> retrying(id, attempt, e),
                c -> apply(c, message, id, handler));
        LOG.debug("{} - Message {} {}", group, id.id(), outcome);
        reportUnordered(id, outcome);
        listener.onOutcome(group, id, outcome);
        return outcome;
      } catch (OutboxException e) {
        listener.onFailure(group, id, e);
        throw e;
      }
    };
  }

  /**
   * {@link #transactional(Function, DedupHandler)} inside a consumer span per message (the
   * adapters' form): the span covers the dedup transaction with its retries, gets the outcome after
   * commit, and records a failure. {@code trace} reads the message's headers.
   */
  <M> MessageHandler<M> transactional(
      Function<? super M, MessageIdentity> identity,
      Function<? super M, TracedMessage> trace,
      DedupHandler<M> handler) {
    MessageHandler<M> untraced = transactional(identity, handler);
    if (spans == MessageSpans.NONE) {
      return untraced;
    }
    return message -> {
      try (SpanScope span = spans.message(trace.apply(message))) {
        try {
          Outcome outcome = untraced.handle(message);
          span.outcome(outcomeName(outcome));
          return outcome;
        } catch (RuntimeException e) {
          span.failed(
              e instanceof DedupHandlerException && e.getCause() != null ? e.getCause() : e);
          throw e;
        }
      }
    };
  }

  static String outcomeName(Outcome outcome) {
    return outcome.name().toLowerCase(Locale.ROOT);
  }

  /**
   * The batch form of {@link #decorate}, joining the caller's transaction: records the ids of a
   * batch in one statement (an id twice in the batch counts once) and, with the high-water mark on,
   * advances the keys' marks, then returns one outcome per message in order. Run the handler of
   * exactly the {@link Outcome#PROCESSED} messages on the same connection before the caller
   * commits; skip the others. The ids are locked until the caller commits or rolls back.
   *
   * @throws SQLException if the database failed (roll back)
   */
  public List<Outcome> claim(Connection connection, List<MessageIdentity> identities)
      throws SQLException {
    List<Outcome> outcomes = claimSilently(connection, identities);
    for (int i = 0; i < outcomes.size(); i++) {
      reportUnordered(identities.get(i), outcomes.get(i));
    }
    return outcomes;
  }

  /**
   * A batch handler that runs {@code handler} for a batch's new messages and records the batch's
   * ids in one local transaction of the store's data source, then commits: one transaction per
   * batch instead of one per message. If the handler fails the batch rolls back and runs again
   * split, so the messages before the failing one commit exactly once (at the index a {@link
   * DedupBatchItemException} names, else by bisection); the outcome carries the failure and where
   * it happened. Deadlocks and serialization failures rerun the whole transaction, up to {@code
   * maxAttempts}. Use {@link DedupBatchHandler#each} for a per-message handler.
   */
  public <M> BatchHandler<M> transactionalBatch(
      Function<? super M, MessageIdentity> identity, DedupBatchHandler<M> handler) {
    return new BatchTransactions<>(this, identity, null, handler, null);
  }

  /**
   * {@link #transactionalBatch(Function, DedupBatchHandler)} with consumer spans (the adapters'
   * form): one span per message for a {@link DedupBatchHandler#each} handler, else one span per
   * handler call linked to its messages; a skipped message gets a span of its own with its outcome.
   */
  <M> BatchHandler<M> transactionalBatch(
      Function<? super M, MessageIdentity> identity,
      Function<? super M, TracedMessage> trace,
      DedupBatchHandler<M> handler) {
    return new BatchTransactions<>(this, identity, trace, handler, null);
  }

  /**
   * As {@link #transactionalBatch(Function, DedupBatchHandler)}, in transactions of {@code runner}
   * (e.g. the application's transaction manager) instead of the store's own: no retry on deadlock
   * here (the runner's or the caller's), and a batch that joined a transaction already running is
   * not split: a failure is reported at its first message.
   */
  public <M> BatchHandler<M> transactionalBatch(
      Function<? super M, MessageIdentity> identity,
      DedupBatchHandler<M> handler,
      TransactionRunner runner) {
    return new BatchTransactions<>(this, identity, null, handler, Objects.requireNonNull(runner));
  }

  private <M> Outcome apply(Connection c, M message, MessageIdentity id, DedupHandler<M> handler)
      throws SQLException {
    if (!store.sql(c).insertId(c, group, id.id())) {
      return Outcome.DUPLICATE;
    }
    if (highWaterMark
        && id.markApplies()
        && !store.sql(c).advance(c, group, id.key(), id.sequence())) {
      return Outcome.STALE;
    }
    try {
      handler.handle(c, message);
    } catch (Exception e) {
      throw new DedupHandlerException(id.id(), e);
    }
    return Outcome.PROCESSED;
  }

  /**
   * A message whose seq is not promised key-ordered is never STALE (the mark would drop it when
   * transactions on its key committed in the inverse order of their inserts): count it, warn once.
   */
  private void reportUnordered(MessageIdentity id, Outcome outcome) {
    if (!highWaterMark || outcome != Outcome.PROCESSED || !id.hasSequence() || id.keyOrdered()) {
      return;
    }
    if (warnedUnordered.compareAndSet(false, true)) {
      LOG.warn(
          "{} - Message {} has a seq but no 'seq-order: key' header: its seq may not follow commit"
              + " order per key, so the high-water mark neither skips nor advances on it; it is"
              + " deduped by id only. Cause: a writer built with keyOrder(false) (Spring:"
              + " outbox.writer.key-order=false) or a source without the promise. Logged once per"
              + " group; DedupListener.onUnorderedSequence counts each such message.",
          group,
          id.id());
    }
    listener.onUnorderedSequence(group, id);
  }

  /** {@link #claim} without reporting: the transactional batch reports after commit. */
  List<Outcome> claimSilently(Connection connection, List<MessageIdentity> identities)
      throws SQLException {
    return DedupBatch.claim(
        connection, store.batchSql(connection), group, highWaterMark, identities);
  }

  /**
   * Reports a committed message of a batch. A listener that throws cannot undo the commit, so its
   * exception is logged and the batch goes on.
   */
  void committed(MessageIdentity id, Outcome outcome) {
    LOG.debug("{} - Message {} {}", group, id.id(), outcome);
    try {
      reportUnordered(id, outcome);
      listener.onOutcome(group, id, outcome);
    } catch (RuntimeException e) {
      LOG.warn(
          "{} - DedupListener failed on message {}; ignored: {}", group, id.id(), e.toString());
    }
  }

  void failed(MessageIdentity id, Exception e) {
    try {
      listener.onFailure(group, id, e);
    } catch (RuntimeException l) {
      LOG.warn(
          "{} - DedupListener failed on message {}; ignored: {}", group, id.id(), l.toString());
    }
  }

  MessageSpans spans() {
    return spans;
  }

  int maxAttempts() {
    return maxAttempts;
  }

  Backoff retryBackoff() {
    return backoff;
  }

  void retrying(MessageIdentity id, int attempt, Exception e) {
    LOG.warn(
        "{} - Message {} attempt {} rolled back, retrying: {}",
        group,
        id.id(),
        attempt,
        e.toString());
    listener.onRetry(group, id, attempt, e);
  }

  /** The consumer group. */
  public String group() {
    return group;
  }

  /** Whether the per-key high-water mark is on. */
  public boolean highWaterMark() {
    return highWaterMark;
  }

  /** The store. */
  public DedupStore store() {
    return store;
  }
}
