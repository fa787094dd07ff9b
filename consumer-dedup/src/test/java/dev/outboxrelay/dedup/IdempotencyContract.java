package dev.outboxrelay.dedup;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Idempotency keys on one database; the work writes an effect row in its transaction. */
abstract class IdempotencyContract extends DbFixture {
  private final AtomicInteger runs = new AtomicInteger();

  private IdempotencyStore keys(Duration wait) {
    IdempotencyStore keys =
        IdempotencyStore.builder()
            .dataSource(dataSource)
            .processingTimeout(Duration.ofSeconds(30))
            .waitTimeout(wait)
            .build();
    keys.createIfMissing();
    return keys;
  }

  private IdempotentWork work(String key) {
    return c -> {
      insertEffect(c, key);
      return ("response-" + runs.incrementAndGet()).getBytes(UTF_8);
    };
  }

  @Test
  void repeatedRequestReturnsTheCachedResponse() throws Exception {
    IdempotencyStore keys = keys(Duration.ZERO);
    String key = newId();

    IdempotentResponse first = keys.execute(key, work(key));
    IdempotentResponse second = keys.execute(key, work(key));

    assertThat(first.replayed()).isFalse();
    assertThat(second.replayed()).isTrue();
    assertThat(second.body()).isEqualTo(first.body()).isEqualTo("response-1".getBytes(UTF_8));
    assertThat(effects(key)).isEqualTo(1);
  }

  @Test
  void concurrentDuplicateWaitsForTheResponseOrGetsInProgress() throws Exception {
    IdempotencyStore waiting = keys(Duration.ofSeconds(20));
    IdempotencyStore impatient = keys(Duration.ZERO);
    String key = newId();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<IdempotentResponse> first =
          pool.submit(
              () ->
                  waiting.execute(
                      key,
                      c -> {
                        started.countDown();
                        assertThat(release.await(20, TimeUnit.SECONDS)).isTrue();
                        return work(key).execute(c);
                      }));
      assertThat(started.await(20, TimeUnit.SECONDS)).isTrue();
      Future<IdempotentResponse> second = pool.submit(() -> waiting.execute(key, work(key)));

      assertThatThrownBy(() -> impatient.execute(key, work(key)))
          .isInstanceOf(IdempotencyInProgressException.class);
      release.countDown();

      assertThat(second.get(30, TimeUnit.SECONDS).body())
          .isEqualTo(first.get(30, TimeUnit.SECONDS).body());
      assertThat(second.get().replayed()).isTrue();
    } finally {
      pool.shutdownNow();
    }
    assertThat(effects(key)).isEqualTo(1);
  }

  @Test
  void expiredClaimIsTakenOverByExactlyOneCaller() throws Exception {
    IdempotencyStore keys = keys(Duration.ofSeconds(20));
    String key = newId();
    // A caller crashed long ago while PROCESSING.
    execute(
        "INSERT INTO outbox_idempotency (idempotency_key, status, owner, claimed_at) VALUES ('"
            + key
            + "', 'PROCESSING', 'crashed', CURRENT_TIMESTAMP - INTERVAL '1' HOUR)");
    int callers = 12;
    CyclicBarrier start = new CyclicBarrier(callers);
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    List<IdempotentResponse> responses;
    try {
      List<Callable<IdempotentResponse>> calls =
          IntStream.range(0, callers)
              .<Callable<IdempotentResponse>>mapToObj(
                  i ->
                      () -> {
                        start.await(10, TimeUnit.SECONDS);
                        return keys.execute(key, work(key));
                      })
              .toList();
      responses = pool.invokeAll(calls).stream().map(DedupContract::get).toList();
    } finally {
      pool.shutdownNow();
    }

    assertThat(runs).hasValue(1);
    assertThat(effects(key)).isEqualTo(1);
    assertThat(responses).filteredOn(r -> !r.replayed()).hasSize(1);
    assertThat(responses)
        .allSatisfy(r -> assertThat(r.body()).isEqualTo("response-1".getBytes(UTF_8)));
    assertThat(
            count("SELECT takeovers FROM outbox_idempotency WHERE idempotency_key = '" + key + "'"))
        .isEqualTo(1);
  }

  @Test
  void failedWorkRollsBackAndReleasesTheKey() throws Exception {
    IdempotencyStore keys = keys(Duration.ZERO);
    String key = newId();

    assertThatThrownBy(
            () ->
                keys.execute(
                    key,
                    c -> {
                      insertEffect(c, key);
                      throw new IllegalStateException("payment declined");
                    }))
        .isInstanceOf(DedupHandlerException.class)
        .hasRootCauseMessage("payment declined");
    assertThat(effects(key)).isZero();

    assertThat(keys.execute(key, work(key)).replayed()).isFalse();
    assertThat(effects(key)).isEqualTo(1);
  }
}
