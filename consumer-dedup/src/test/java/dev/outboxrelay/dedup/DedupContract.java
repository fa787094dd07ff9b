package dev.outboxrelay.dedup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Same-transaction dedup on one database; each database subclass is a few lines. */
abstract class DedupContract extends DbFixture {

  @Test
  void firstDeliveryRunsTheHandlerAndCommitsWithItsRecord() throws Exception {
    MessageHandler<MessageIdentity> handler =
        dedup("billing").transactional(Function.identity(), effect());
    MessageIdentity message = MessageIdentity.of(newId());

    assertThat(handler.handle(message)).isEqualTo(Outcome.PROCESSED);

    assertThat(effects(message.id())).isEqualTo(1);
    assertThat(store.isProcessed("billing", message.id())).isTrue();
    assertThat(store.isProcessed("shipping", message.id())).isFalse();
  }

  @Test
  void duplicateDeliverySkipsTheHandler() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    MessageHandler<MessageIdentity> handler =
        dedup("billing")
            .transactional(
                Function.identity(),
                (c, m) -> {
                  calls.incrementAndGet();
                  insertEffect(c, m.id());
                });
    MessageIdentity message = MessageIdentity.of(newId());

    handler.handle(message);
    assertThat(handler.handle(message)).isEqualTo(Outcome.DUPLICATE);

    assertThat(calls).hasValue(1);
    assertThat(effects(message.id())).isEqualTo(1);
  }

  @Test
  void handlerFailureRollsBackTheEffectAndTheRecordSoRedeliveryRunsIt() throws Exception {
    Dedup dedup = dedup("billing");
    MessageIdentity message = MessageIdentity.of(newId());
    MessageHandler<MessageIdentity> failing =
        dedup.transactional(
            Function.identity(),
            (c, m) -> {
              insertEffect(c, m.id());
              throw new IllegalStateException("boom");
            });

    assertThatThrownBy(() -> failing.handle(message))
        .isInstanceOf(DedupHandlerException.class)
        .hasRootCauseMessage("boom");
    assertThat(effects(message.id())).isZero();
    assertThat(store.isProcessed("billing", message.id())).isFalse();

    assertThat(dedup.transactional(Function.identity(), effect()).handle(message))
        .isEqualTo(Outcome.PROCESSED);
    assertThat(effects(message.id())).isEqualTo(1);
  }

  @Test
  void concurrentDeliveryOfOneIdHasOneEffect() throws Exception {
    MessageHandler<MessageIdentity> handler =
        dedup("billing").transactional(Function.identity(), effect());
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 5; round++) {
        MessageIdentity message = MessageIdentity.of(newId());
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Callable<Outcome>> calls =
            IntStream.range(0, threads)
                .<Callable<Outcome>>mapToObj(
                    i ->
                        () -> {
                          start.await(10, TimeUnit.SECONDS);
                          return handler.handle(message);
                        })
                .toList();
        List<Outcome> outcomes = pool.invokeAll(calls).stream().map(DedupContract::get).toList();

        assertThat(outcomes).containsOnlyOnce(Outcome.PROCESSED);
        assertThat(effects(message.id())).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void deadlockInTheHandlerRollsBackAndRetries() throws Exception {
    execute("CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL)");
    execute("INSERT INTO accounts VALUES (1, 0), (2, 0)");
    AtomicInteger retries = new AtomicInteger();
    CyclicBarrier bothLocked = new CyclicBarrier(2);
    AtomicInteger firstAttempts = new AtomicInteger();
    Dedup dedup =
        Dedup.builder()
            .store(store)
            .group("transfers")
            .listener(
                new DedupListener() {
                  @Override
                  public void onRetry(String g, MessageIdentity m, int attempt, Exception e) {
                    retries.incrementAndGet();
                  }
                })
            .build();
    // Two transfers lock the accounts in opposite order: the database kills one as a deadlock.
    MessageHandler<MessageIdentity> transfer =
        dedup.transactional(
            Function.identity(),
            (c, m) -> {
              int first = m.key().equals("a") ? 1 : 2;
              add(c, first);
              if (firstAttempts.incrementAndGet() <= 2) {
                bothLocked.await(10, TimeUnit.SECONDS);
              }
              add(c, 3 - first);
              insertEffect(c, m.id());
            });
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Outcome> a =
          pool.submit(() -> transfer.handle(new MessageIdentity(newId(), "a", null)));
      Future<Outcome> b =
          pool.submit(() -> transfer.handle(new MessageIdentity(newId(), "b", null)));

      assertThat(a.get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.PROCESSED);
      assertThat(b.get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.PROCESSED);
    } finally {
      pool.shutdownNow();
    }
    assertThat(retries.get()).isGreaterThanOrEqualTo(1);
    assertThat(effects()).isEqualTo(2);
    assertThat(count("SELECT SUM(balance) FROM accounts")).isEqualTo(4);
  }

  @Test
  void decoratedHandlerJoinsTheCallersTransaction() throws Exception {
    DedupHandler<MessageIdentity> handler =
        dedup("billing").decorate(Function.identity(), effect());
    MessageIdentity message = MessageIdentity.of(newId());
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      handler.handle(c, message);
      c.rollback();
      assertThat(store.isProcessed("billing", message.id())).isFalse();
      handler.handle(c, message);
      handler.handle(c, message); // a duplicate within the same transaction
      c.commit();
    }
    assertThat(effects(message.id())).isEqualTo(1);
    assertThat(store.isProcessed("billing", message.id())).isTrue();
  }

  private static void add(Connection c, int account) throws Exception {
    try (var ps = c.prepareStatement("UPDATE accounts SET balance = balance + 1 WHERE id = ?")) {
      ps.setInt(1, account);
      ps.executeUpdate();
    }
  }

  static <T> T get(Future<T> future) {
    try {
      return future.get();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
