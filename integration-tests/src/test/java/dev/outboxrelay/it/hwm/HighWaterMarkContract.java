package dev.outboxrelay.it.hwm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The consumer's high-water mark never drops a committed message, whatever the relay's publish
 * order: with the writer's key order (seq follows commit order per key, messages marked) the mark
 * applies; without it the consumer falls back to dedup by id, counted. One subclass per relay mode
 * and broker.
 */
abstract class HighWaterMarkContract {
  private final AtomicInteger stale = new AtomicInteger();
  private final AtomicInteger unordered = new AtomicInteger();

  final List<AutoCloseable> closeables = new ArrayList<>();
  HikariDataSource dataSource;

  abstract DatabaseServer database();

  /**
   * Starts the relay under test and a consumer that applies {@link Inversions#effect} through
   * {@code dedup}; registers both in {@link #closeables}.
   */
  abstract void startRelayAndConsumer(Dedup dedup) throws Exception;

  /**
   * Whether, without key order, T1 commits only after T2's message was applied. The default polling
   * relay needs it: a claim made after both commits would publish them in seq order, no inversion.
   * A CDC stream carries commit order anyway (and on MariaDB its pending check, a shared-lock read,
   * waits for the open T1). The strict-order polling relay holds T2 back until T1 ends.
   */
  boolean appliesSecondBeforeFirstCommits() {
    return false;
  }

  @BeforeEach
  void createDatabase() throws Exception {
    dataSource = database().dataSource(database().createDatabase(), 8);
    try (Connection c = dataSource.getConnection()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
    }
  }

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    dataSource.close();
  }

  @Test
  void withKeyOrderSameKeyWritersSerializeAndTheMarkAppliesEveryMessageOnce() throws Exception {
    List<String> committed = runInversions(true);
    assertThat(stale).hasValue(0);
    assertThat(unordered).hasValue(0);
    assertThat(committed).hasSize(2 * Inversions.ROUNDS + 1);
  }

  @Test
  void withTheLateWriteASameKeyWriterDoesNotWaitAndTheMarkAppliesEveryMessageOnce()
      throws Exception {
    List<String> committed = run(ds -> Inversions.runLate(ds, Outbox.builder().build()));
    assertThat(stale).hasValue(0);
    assertThat(unordered).hasValue(0);
    assertThat(committed).hasSize(2 * Inversions.ROUNDS + 1);
  }

  @Test
  void withoutKeyOrderInverseCommitsAreAppliedOnceByIdOnlyAndCounted() throws Exception {
    List<String> committed = runInversions(false);
    assertThat(stale).hasValue(0);
    assertThat(unordered).hasValue(committed.size());
  }

  private List<String> runInversions(boolean keyOrder) throws Exception {
    return run(
        ds ->
            Inversions.run(
                ds,
                Outbox.builder().keyOrder(keyOrder).build(),
                keyOrder,
                appliesSecondBeforeFirstCommits()));
  }

  /** Writes with {@code rounds} while a relay and a high-water-mark consumer run. */
  private List<String> run(Rounds rounds) throws Exception {
    DataSource ds = dataSource;
    DedupStore store = DedupStore.builder().dataSource(ds).build();
    store.createIfMissing();
    Inversions.createEffects(ds);
    startRelayAndConsumer(dedup(store));
    List<String> committed = rounds.run(ds);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> Inversions.effects(ds).size() + stale.get() >= committed.size());
    // Every committed message applied exactly once: none dropped as STALE, none applied twice.
    assertThat(Inversions.effects(ds)).containsExactlyInAnyOrderElementsOf(committed);
    return committed;
  }

  private interface Rounds {
    List<String> run(DataSource ds) throws Exception;
  }

  private Dedup dedup(DedupStore store) {
    return Dedup.builder()
        .store(store)
        .group("hwm")
        .highWaterMark(true)
        .listener(
            new DedupListener() {
              @Override
              public void onOutcome(String group, MessageIdentity m, Outcome outcome) {
                if (outcome == Outcome.STALE) {
                  stale.incrementAndGet();
                }
              }

              @Override
              public void onUnorderedSequence(String group, MessageIdentity m) {
                unordered.incrementAndGet();
              }
            })
        .build();
  }
}
