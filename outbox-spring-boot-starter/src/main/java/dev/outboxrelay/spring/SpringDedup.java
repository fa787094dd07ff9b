package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.dedup.BatchOutcome;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupHandlerException;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Consumer-side dedup in a Spring-managed transaction: the message id is recorded (consumer-dedup's
 * {@link Dedup#decorate}) and the handler runs in one transaction of the application's transaction
 * manager, so the handler's {@code JdbcTemplate} / JPA writes commit or roll back with the dedup
 * record. A redelivered message is skipped. Return from the listener only after {@code handle}
 * returned: the container then commits the offset after the database commit.
 *
 * <pre>{@code
 * dedup.handle("billing", RocketMqDedup.identity(message), () -> invoices.create(message));
 * }</pre>
 *
 * {@link #handleBatch} does the same for a batch in one transaction. For Kafka records use {@link
 * SpringKafkaDedup} or {@link Deduplicated}. Inside a transaction that is already running, {@code
 * handle} joins it: the commit, and with it the dedup record, happens when that outer transaction
 * commits.
 *
 * <p>Thread-safe.
 */
public final class SpringDedup {
  private final DataSource dataSource;
  private final Supplier<TransactionTemplate> transactions;
  private final DedupStore store;
  private final boolean highWaterMark;
  private final String defaultGroup;
  private final List<DedupListener> listeners;
  private final Map<String, Dedup> groups = new ConcurrentHashMap<>();
  private final SpringTransactionRunner runner;

  SpringDedup(
      DataSource dataSource,
      Supplier<TransactionTemplate> transactions,
      DedupStore store,
      boolean highWaterMark,
      String defaultGroup,
      List<DedupListener> listeners) {
    this.dataSource = dataSource;
    this.transactions = transactions;
    this.store = store;
    this.highWaterMark = highWaterMark;
    this.defaultGroup = defaultGroup;
    this.listeners = List.copyOf(listeners);
    this.runner = new SpringTransactionRunner(dataSource, transactions);
  }

  /** The work to run once per message; its database writes join the dedup transaction. */
  @FunctionalInterface
  public interface Work {
    void run() throws Exception;
  }

  /**
   * Runs {@code work} once per message id in the default group ({@code outbox.dedup.group}, else
   * {@code spring.kafka.consumer.group-id}).
   *
   * @return PROCESSED after commit, or DUPLICATE when the work was skipped (with {@code
   *     outbox.dedup.high-water-mark} also for a STALE message)
   * @throws RuntimeException what the work threw (all rolled back: let the source redeliver)
   */
  public Outcome handle(MessageIdentity identity, Work work) {
    return handle(defaultGroup(), identity, work);
  }

  /**
   * As {@link #handle(MessageIdentity, Work)} for an explicit consumer group. The identity comes
   * from any source: {@code KafkaDedup.identity(record)}, {@code RocketMqDedup.identity(message)},
   * a queue, a webhook.
   */
  public Outcome handle(String group, MessageIdentity identity, Work work) {
    Dedup dedup = groups.computeIfAbsent(group, this::dedup);
    Outcome outcome;
    try {
      outcome = transactions.get().execute(status -> inTransaction(dedup, identity, work));
    } catch (RuntimeException | Error e) {
      listeners.forEach(l -> l.onFailure(group, identity, asException(e)));
      throw e;
    }
    listeners.forEach(l -> l.onOutcome(group, identity, outcome));
    return outcome;
  }

  /**
   * The work for the new messages of a batch, in delivery order; its database writes join the
   * batch's transaction. Throw {@link dev.outboxrelay.dedup.DedupBatchItemException} with an index
   * in {@code messages} to name the message that failed.
   */
  @FunctionalInterface
  public interface BatchWork<M> {
    void run(List<M> messages) throws Exception;
  }

  /**
   * The batch form of {@link #handle(String, MessageIdentity, Work)}: records the batch's ids in
   * one statement ({@link Dedup#claim}; an id twice in the batch counts once) and runs {@code work}
   * once with the new messages, in one transaction of the application's transaction manager; if no
   * message is new, {@code work} is not called. If {@code work} throws, the batch rolls back and
   * runs again split, each part in its own transaction, so the messages before the failing one
   * commit once: at the index a {@code DedupBatchItemException} names, else by halves. A message
   * whose identity cannot be read ends the batch before it. Never throws for a failure of the work
   * or the database: the outcome holds the committed prefix and the failure (a {@link
   * DedupHandlerException} whose cause is the work's exception); redeliver from {@link
   * BatchOutcome#committed()}. Inside a transaction that is already running the batch joins it and
   * is not split: a failure is reported at the first message (the caller's transaction must roll
   * back). Listeners get {@code onOutcome} per committed message and {@code onFailure} once.
   */
  public <M> BatchOutcome handleBatch(
      String group,
      List<M> messages,
      Function<? super M, MessageIdentity> identity,
      BatchWork<M> work) {
    return groups
        .computeIfAbsent(group, this::dedup)
        .<M>transactionalBatch(identity, (c, fresh) -> work.run(fresh), runner)
        .handle(messages);
  }

  private Outcome inTransaction(Dedup dedup, MessageIdentity identity, Work work) {
    Connection connection = DataSourceUtils.getConnection(dataSource);
    AtomicBoolean ran = new AtomicBoolean();
    try {
      SpringTransactionRunner.requireTransactional(connection, dataSource);
      dedup
          .<MessageIdentity>decorate(
              m -> m,
              (c, m) -> {
                ran.set(true);
                work.run();
              })
          .handle(connection, identity);
    } catch (Exception e) {
      throw unwrap(identity, e);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
    // Dedup.decorate does not return its outcome, so a skip is reported as DUPLICATE; with the
    // high-water mark on it may also have been STALE (an old seq of its key).
    return ran.get() ? Outcome.PROCESSED : Outcome.DUPLICATE;
  }

  /** The default group, or an error naming the properties that set it. */
  String defaultGroup() {
    if (defaultGroup == null) {
      throw new OutboxConfigException(
          "outbox.dedup.group", null, "is required (or spring.kafka.consumer.group-id)");
    }
    return defaultGroup;
  }

  private Dedup dedup(String group) {
    return Dedup.builder()
        .store(store)
        .group(group)
        .highWaterMark(highWaterMark)
        .listener(fanOut())
        .build();
  }

  /**
   * Passes Dedup's callbacks on to the registered listeners: on the single-message path Dedup
   * reports only the mark's dedup-only fallback ({@link #handle} reports outcomes and failures); on
   * the batch path it reports all of them.
   */
  private DedupListener fanOut() {
    return new DedupListener() {
      @Override
      public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
        listeners.forEach(l -> l.onOutcome(group, message, outcome));
      }

      @Override
      public void onFailure(String group, MessageIdentity message, Exception failure) {
        // The handler's own exception, as handle() reports it.
        Exception own =
            failure instanceof DedupHandlerException && failure.getCause() instanceof Exception e
                ? e
                : failure;
        listeners.forEach(l -> l.onFailure(group, message, own));
      }

      @Override
      public void onUnorderedSequence(String group, MessageIdentity message) {
        listeners.forEach(l -> l.onUnorderedSequence(group, message));
      }
    };
  }

  /** The handler's own exception, so the container's error handler classifies it. */
  private static RuntimeException unwrap(MessageIdentity identity, Exception e) {
    Throwable cause = e instanceof DedupHandlerException ? e.getCause() : e;
    if (cause instanceof RuntimeException r) {
      return r;
    }
    if (cause instanceof Error err) {
      throw err;
    }
    if (cause instanceof SQLException sql) {
      return new OutboxDatabaseException("Dedup of message " + identity.id() + " failed", sql);
    }
    return e instanceof RuntimeException r ? r : new DedupHandlerException(identity.id(), e);
  }

  private static Exception asException(Throwable t) {
    return t instanceof Exception e ? e : new RuntimeException(t);
  }
}
