package dev.outboxrelay.dedup;

import static dev.outboxrelay.dedup.Outcome.DUPLICATE;
import static dev.outboxrelay.dedup.Outcome.PROCESSED;
import static dev.outboxrelay.dedup.Outcome.STALE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Two transactions claim batches at once, each on its own connection, with {@link Dedup#claim}
 * (which does not retry, so a deadlock would fail the test). The first to claim holds its
 * transaction open until the other is seen waiting for a lock, so they really overlap.
 */
abstract class BatchRaceContract extends DbFixture {

  @Test
  void racingBatchesWithOverlappingIdsProcessEachIdOnceAndKeepTheirOtherIds() throws Exception {
    Dedup dedup = dedup("billing");
    for (int round = 0; round < 5; round++) {
      List<MessageIdentity> shared = ids(8, i -> MessageIdentity.of(newId()));
      List<MessageIdentity> a = concat(ids(8, i -> MessageIdentity.of(newId())), shared);
      List<MessageIdentity> b = concat(reversed(shared), ids(8, i -> MessageIdentity.of(newId())));

      List<List<Outcome>> outcomes = race(dedup, a, b);

      for (int i = 0; i < 8; i++) {
        assertThat(outcomes.get(0).get(i)).as("a's own id").isEqualTo(PROCESSED);
        assertThat(outcomes.get(1).get(8 + i)).as("b's own id").isEqualTo(PROCESSED);
        Outcome inA = outcomes.get(0).get(8 + i);
        Outcome inB = outcomes.get(1).get(7 - i);
        assertThat(List.of(inA, inB))
            .as("shared id %d", i)
            .containsExactlyInAnyOrder(PROCESSED, DUPLICATE);
      }
    }
    assertThat(effects()).isEqualTo(5 * 24);
    assertThat(distinctEffects()).isEqualTo(5 * 24);
  }

  @Test
  void racingBatchesOnTheSameKeysInOppositeOrderDoNotDeadlock() throws Exception {
    Dedup dedup = Dedup.builder().store(store).group("billing").highWaterMark(true).build();
    AtomicInteger seq = new AtomicInteger();
    for (int round = 0; round < 5; round++) {
      List<MessageIdentity> a =
          ids(10, i -> new MessageIdentity(newId(), "k" + i, (long) seq.incrementAndGet(), true));
      List<MessageIdentity> b =
          ids(
              10,
              i -> new MessageIdentity(newId(), "k" + (9 - i), (long) seq.incrementAndGet(), true));

      List<List<Outcome>> outcomes = race(dedup, a, b);

      // b's seqs are above a's on every key: a is stale wherever b committed first
      assertThat(outcomes.get(1)).containsOnly(PROCESSED);
      assertThat(Set.copyOf(outcomes.get(0))).isIn(Set.of(PROCESSED), Set.of(STALE));
      for (int k = 0; k < 10; k++) {
        assertThat(count("SELECT seq FROM outbox_dedup_hwm WHERE aggregate_id = 'k" + k + "'"))
            .isEqualTo(b.get(9 - k).sequence());
      }
    }
  }

  /**
   * Claims {@code a} and {@code b} in two transactions at once and writes an effect for each
   * PROCESSED message; returns the outcomes of a and of b.
   */
  List<List<Outcome>> race(Dedup dedup, List<MessageIdentity> a, List<MessageIdentity> b)
      throws Exception {
    CyclicBarrier start = new CyclicBarrier(2);
    AtomicInteger done = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<List<Outcome>>> sides = new ArrayList<>();
      for (List<MessageIdentity> batch : List.of(a, b)) {
        sides.add(pool.submit(() -> claimAndCommit(dedup, batch, start, done)));
      }
      return List.of(
          sides.get(0).get(60, TimeUnit.SECONDS), sides.get(1).get(60, TimeUnit.SECONDS));
    } finally {
      pool.shutdownNow();
    }
  }

  private List<Outcome> claimAndCommit(
      Dedup dedup, List<MessageIdentity> batch, CyclicBarrier start, AtomicInteger done)
      throws Exception {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      start.await(10, TimeUnit.SECONDS);
      List<Outcome> outcomes = dedup.claim(c, batch);
      // the first to claim waits until the other is blocked on its locks
      await().atMost(Duration.ofSeconds(30)).until(() -> done.get() > 0 || lockWaits() > 0);
      for (int i = 0; i < batch.size(); i++) {
        if (outcomes.get(i) == PROCESSED) {
          insertEffect(c, batch.get(i).id());
        }
      }
      c.commit();
      done.incrementAndGet();
      return outcomes;
    }
  }

  /** Sessions of this server waiting for a row lock. */
  long lockWaits() throws Exception {
    return count(
        server().dialect() == SqlDialect.POSTGRESQL
            ? "SELECT count(*) FROM pg_locks WHERE NOT granted"
            : "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'");
  }

  static List<MessageIdentity> ids(int n, java.util.function.IntFunction<MessageIdentity> id) {
    return IntStream.range(0, n).mapToObj(id).toList();
  }

  static <T> List<T> concat(List<T> first, List<T> second) {
    List<T> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  static <T> List<T> reversed(List<T> list) {
    List<T> copy = new ArrayList<>(list);
    Collections.reverse(copy);
    return copy;
  }
}
