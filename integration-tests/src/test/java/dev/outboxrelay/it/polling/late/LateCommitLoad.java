package dev.outboxrelay.it.polling.late;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two polling relays under writers that keep their inserts uncommitted for up to 1.5 s (issue 16
 * item 4). On MariaDB a mark that scanned the table queued behind those inserts while its fence
 * held shared locks on the leases, so renewals waited, leases expired and marks were refused.
 */
abstract class LateCommitLoad {
  static final int WRITERS = 24;
  static final Duration MAX_COMMIT_DELAY = Duration.ofMillis(1500);
  static final Duration WRITE_FOR = Duration.ofSeconds(40);
  static final Duration LEASE = Duration.ofSeconds(4);
  static final Duration POLL = Duration.ofMillis(100);

  /**
   * Longest commit-to-acknowledgement time allowed. A healthy relay needs one poll interval plus a
   * claim and a mark (tens of milliseconds; 243 ms was the longest seen here with the fix); the
   * rest is slack for this 2-core machine shared with other builds. A mark that queues behind late
   * writers waits up to {@link #MAX_COMMIT_DELAY} for each of them, so two in a row reach the
   * bound; the stall this test was written for lasted 22 s here (30-60 s in the field).
   */
  static final Duration STALL_BOUND = MAX_COMMIT_DELAY.multipliedBy(2);

  protected abstract DatabaseServer database();

  @Test
  void lateCommittingWritersNeitherStallNorFenceTwoRelays() throws Exception {
    AtomicInteger fenced = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    RelayListener listener =
        new RelayListener() {
          @Override
          public void onFenced(int refusedMarks) {
            fenced.addAndGet(refusedMarks);
          }

          @Override
          public void onError(Exception error, Duration delay) {
            errors.incrementAndGet();
          }
        };
    AckRecorder broker = new AckRecorder();
    try (HikariDataSource ds = database().dataSource(database().createDatabase(), 40)) {
      try (Connection c = ds.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      }
      try (PollingRelay a = relay(ds, "late-a", broker, listener).start();
          PollingRelay b = relay(ds, "late-b", broker, listener).start()) {
        // Measure steady state: the first relay gives half its buckets to the second.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    a.ownedBuckets().size() + b.ownedBuckets().size() == OutboxTable.BUCKETS
                        && Math.abs(a.ownedBuckets().size() - b.ownedBuckets().size()) <= 1);
        LateCommitWriters writers = new LateCommitWriters(ds, WRITERS, MAX_COMMIT_DELAY);
        try (writers) {
          Thread.sleep(WRITE_FOR.toMillis()); // the length of the load, not a wait for an outcome
          writers.stop();
        }
        List<LateCommitWriters.Committed> committed = writers.committed();
        try {
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> firstAcks(broker).keySet().containsAll(ids(committed)));
        } catch (ConditionTimeoutException e) {
          // reported below with the figures: rows lost (or still stalled after a minute)
        }
        check(committed, writers.rolledBack(), broker.acks(), fenced.get(), errors.get());
      }
    }
  }

  /**
   * The deterministic core of the above: a mark of every committed row but one, or all but five, in
   * a table where one writer's insert stays uncommitted. MariaDB 10.11 planned the old {@code id IN
   * (...)} mark as a full scan at these ratios (500 of 501 rows), and a plain {@code seq IN (...)}
   * as well (5 of 10, 500 of 501): a locking scan waits for that writer, here for the whole test.
   * The bound covers the relay's start, first rebalance, one claim and one mark, with slack for a
   * loaded machine, and stays far below InnoDB's lock wait timeout (50 s), which would have ended
   * the old wait.
   */
  @ParameterizedTest(name = "a mark of {0} rows")
  @ValueSource(ints = {500, 5})
  void aMarkDoesNotWaitForAnUncommittedInsert(int rows) throws Exception {
    AckRecorder broker = new AckRecorder();
    try (HikariDataSource ds = database().dataSource(database().createDatabase(), 8)) {
      List<OutboxMessage> backlog = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        backlog.add(LateCommitWriters.message("backlog-" + i % 50));
      }
      try (Connection c = ds.getConnection()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
        c.setAutoCommit(false);
        Outbox.builder().build().saveAll(c, backlog);
        c.commit();
      }
      try (Connection writer = ds.getConnection()) {
        writer.setAutoCommit(false);
        Outbox.builder().build().saveAll(writer, List.of(LateCommitWriters.message("held")));
        try (PollingRelay relay = relay(ds, "marker", broker, new RelayListener() {}).start()) {
          try {
            await().atMost(Duration.ofSeconds(10)).until(() -> committedRows(ds) == 0);
          } finally {
            writer.rollback(); // before the relay's close, which waits for a mark in progress
          }
        }
      }
      assertThat(broker.acks()).hasSize(rows);
    }
  }

  private static long committedRows(HikariDataSource ds) throws java.sql.SQLException {
    try (Connection c = ds.getConnection();
        var st = c.createStatement();
        var rs = st.executeQuery("SELECT COUNT(*) FROM outbox")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private void check(
      List<LateCommitWriters.Committed> committed,
      List<OutboxMessage> rolledBack,
      List<AckRecorder.Ack> acks,
      int fenced,
      int errors) {
    Map<UUID, Long> first = new HashMap<>();
    Map<String, List<UUID>> delivered = new LinkedHashMap<>();
    for (AckRecorder.Ack ack : acks) {
      if (first.putIfAbsent(ack.message().id(), ack.nanos()) == null) {
        delivered
            .computeIfAbsent(ack.message().aggregateId(), k -> new ArrayList<>())
            .add(ack.message().id());
      }
    }
    long stall = 0;
    int lost = 0;
    Map<String, List<UUID>> written = new LinkedHashMap<>();
    for (LateCommitWriters.Committed c : committed) {
      Long acked = first.get(c.message().id());
      if (acked == null) {
        lost++;
      } else {
        stall = Math.max(stall, acked - c.commitNanos());
      }
      written
          .computeIfAbsent(c.message().aggregateId(), k -> new ArrayList<>())
          .add(c.message().id());
    }
    int duplicates = acks.size() - first.size();
    System.out.printf(
        "%s: %d committed, %d lost, %d rolled back, %d acks, %d duplicates, %d fenced marks, %d relay"
            + " errors, longest commit-to-ack %d ms%n",
        getClass().getSimpleName(),
        committed.size(),
        lost,
        rolledBack.size(),
        acks.size(),
        duplicates,
        fenced,
        errors,
        stall / 1_000_000);
    assertThat(fenced).as("marks refused by the lease fence").isZero();
    assertThat(duplicates).as("duplicates (no fault injected)").isZero();
    assertThat(Duration.ofNanos(stall)).as("longest commit-to-ack").isLessThan(STALL_BOUND);
    assertThat(first.keySet())
        .as("rolled-back rows published")
        .doesNotContainAnyElementsOf(rolledBack.stream().map(OutboxMessage::id).toList());
    assertThat(lost).as("committed rows never published").isZero();
    written.forEach(
        (key, ids) -> assertThat(delivered.get(key)).as("order of " + key).isEqualTo(ids));
  }

  private static PollingRelay relay(
      HikariDataSource ds, String name, AckRecorder broker, RelayListener listener) {
    return PollingRelay.builder()
        .name(name)
        .dataSource(ds)
        .publisher(broker)
        .leaseDuration(LEASE)
        .pollInterval(POLL)
        .listener(listener)
        .build();
  }

  private static Map<UUID, Long> firstAcks(AckRecorder broker) {
    Map<UUID, Long> first = new HashMap<>();
    broker.acks().forEach(a -> first.putIfAbsent(a.message().id(), a.nanos()));
    return first;
  }

  private static List<UUID> ids(List<LateCommitWriters.Committed> committed) {
    return committed.stream().map(c -> c.message().id()).toList();
  }
}
