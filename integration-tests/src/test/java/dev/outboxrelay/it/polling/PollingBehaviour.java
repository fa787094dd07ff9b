package dev.outboxrelay.it.polling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.writer.Outbox;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Polling-relay behaviour beyond the relay contract; a subclass per database. */
abstract class PollingBehaviour extends PollingFixture {

  /** A listener that adds the marks the lease fence refused to {@code fenced}. */
  private static RelayListener countingFenced(AtomicInteger fenced) {
    return new RelayListener() {
      @Override
      public void onFenced(int refusedMarks) {
        fenced.addAndGet(refusedMarks);
      }
    };
  }

  @Test
  void aRelayPausedPastItsLeaseCanNeitherMarkNorKeepPublishing() throws Exception {
    AtomicInteger fenced = new AtomicInteger();
    GatedPublisher paused = new GatedPublisher(kafka());
    PollingRelay a =
        started(
            relay("paused")
                .publisher(paused)
                .retention(Retention.keepFor(Duration.ofHours(1)))
                .listener(countingFenced(fenced))
                .build());
    await().until(() -> a.ownedBuckets().size() == OutboxTable.BUCKETS);
    String key = keyInLowerHalfOfBuckets();
    List<OutboxMessage> first = commit(key, 20);
    paused.awaitHeld();
    // A is stuck mid-batch past its leases (as if SIGSTOPped); B starts and takes the lower half.
    execute("UPDATE outbox_lease SET expires_at = " + past());
    started(
        relay("successor")
            .publisher(kafka())
            .retention(Retention.keepFor(Duration.ofHours(1)))
            .build());
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds(key).size() >= 20);
    paused.open();
    await().atMost(Duration.ofSeconds(30)).until(() -> fenced.get() == 20);
    List<OutboxMessage> second = commit(key, 10);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds(key).size() >= 50);
    assertThat(paused.keysAfterFirstCall)
        .as("the stale relay published the lost bucket")
        .doesNotContain(key);
    assertThat(receivedIds(key).stream().distinct().toList())
        .containsExactlyElementsOf(concat(ids(first), ids(second)));
  }

  /**
   * A mark that finds its rows already gone is not a lost lease. Here the publisher deletes each
   * batch's rows (by id, auto-commit) as it sends them, as a mark whose commit reached the database
   * but whose answer was lost (a dropped connection) leaves them for the same mark tried again: no
   * fenced marks are reported and the relay keeps its buckets. On PostgreSQL such rows were counted
   * as refused by the fence (the onFenced count, a WARN "lease lost" and the leases dropped),
   * telling operators a lease was lost when none was.
   */
  @Test
  void rowsAlreadyGoneWhenMarkedAreNotReportedAsFenced() throws Exception {
    AtomicInteger fenced = new AtomicInteger();
    Publisher broker = kafka();
    Publisher deleting =
        new Publisher() {
          @Override
          public java.util.concurrent.CompletionStage<List<dev.outboxrelay.core.PublishResult>>
              publish(List<OutboxMessage> batch) {
            String id =
                database().dialect() == dev.outboxrelay.core.SqlDialect.POSTGRESQL
                    ? "CAST(? AS uuid)"
                    : "?";
            try (Connection c = dataSource.getConnection();
                java.sql.PreparedStatement ps =
                    c.prepareStatement("DELETE FROM outbox WHERE id = " + id)) {
              for (OutboxMessage m : batch) {
                ps.setString(1, m.id().toString());
                ps.addBatch();
              }
              ps.executeBatch();
            } catch (java.sql.SQLException e) {
              throw new IllegalStateException(e);
            }
            return broker.publish(batch);
          }

          @Override
          public void close() {
            broker.close();
          }
        };
    PollingRelay relay =
        started(relay("gone").publisher(deleting).listener(countingFenced(fenced)).build());
    await().until(() -> relay.ownedBuckets().size() == OutboxTable.BUCKETS);
    List<OutboxMessage> sent = commit("gone-1", 20);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("gone-1").size() >= 20);
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(5))
        .until(() -> fenced.get() == 0 && relay.ownedBuckets().size() == OutboxTable.BUCKETS);
    assertThat(receivedIds("gone-1")).containsExactlyElementsOf(ids(sent));
  }

  /**
   * On a backlog the relay claims the next lane (other buckets) while a batch is being
   * acknowledged: batches overlap, no key is in two at once, every key arrives in order.
   */
  @Test
  void aBacklogIsPipelinedWithoutAKeyInTwoBatchesAtOnce() throws Exception {
    pipelined(2);
  }

  /** With one batch in flight the loop is claim, publish, mark, strictly in turn. */
  @Test
  void oneBatchInFlightIsTheSequentialLoop() throws Exception {
    pipelined(1);
  }

  private void pipelined(int inFlightBatches) throws Exception {
    Map<String, List<UUID>> written = new LinkedHashMap<>();
    List<OutboxMessage> messages = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      for (int k = 0; k < 400; k++) {
        OutboxMessage m =
            OutboxMessage.builder()
                .aggregateType("order")
                .aggregateId("pipe-" + k)
                .type("OrderChanged")
                .payload("{\"round\":" + round + "}")
                .build();
        messages.add(m);
        written.computeIfAbsent(m.aggregateId(), x -> new ArrayList<>()).add(m.id());
      }
    }
    try (java.sql.Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      outbox.saveAll(c, messages);
      c.commit();
    }
    OverlapRecordingPublisher publisher = new OverlapRecordingPublisher(kafka());
    started(
        relay("pipelined")
            .publisher(publisher)
            .batchSize(100)
            .inFlightBatches(inFlightBatches)
            .build());
    await().atMost(Duration.ofSeconds(60)).until(() -> received().size() >= messages.size());
    assertThat(publisher.keysInTwoBatches()).as("keys in two batches at once").isEmpty();
    if (inFlightBatches == 1) {
      assertThat(publisher.maxInFlight()).as("batches in flight at once").isEqualTo(1);
    } else {
      assertThat(publisher.maxInFlight()).as("batches in flight at once").isEqualTo(2);
    }
    Map<String, List<UUID>> got = new LinkedHashMap<>();
    for (ReceivedMessage r : received()) {
      got.computeIfAbsent(r.key(), x -> new ArrayList<>()).add(r.id());
    }
    written.forEach(
        (key, ids) ->
            assertThat(got.get(key).stream().distinct().toList())
                .as("order of " + key)
                .containsExactlyElementsOf(ids));
  }

  /**
   * A key whose bucket is below 128, so the second relay (which takes buckets in order) gets it.
   */
  private String keyInLowerHalfOfBuckets() throws java.sql.SQLException {
    String hash =
        database().dialect() == dev.outboxrelay.core.SqlDialect.POSTGRESQL
            ? "hashtext('%s') & 255"
            : "crc32('%s') & 255";
    for (int i = 0; ; i++) {
      if (count("SELECT " + hash.formatted("paused-" + i)) < 128) {
        return "paused-" + i;
      }
    }
  }

  private String past() {
    return database().dialect() == dev.outboxrelay.core.SqlDialect.POSTGRESQL
        ? "now() - interval '1 second'"
        : "CURRENT_TIMESTAMP(6) - INTERVAL 1 SECOND";
  }

  private static List<java.util.UUID> concat(List<java.util.UUID> a, List<java.util.UUID> b) {
    List<java.util.UUID> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  /**
   * A kill re-sends at most what was sent and not yet marked: one batch per lane in flight, so
   * {@code kills × batchSize × inFlightBatches}. Acknowledgements arrive late, so a backlog keeps
   * both lanes busy and the kill lands while batches are in flight.
   */
  @Test
  void aKillRepublishesAtMostBatchSizeTimesInFlightBatches() throws Exception {
    int batchSize = 100;
    int inFlightBatches = 2;
    int kills = 1;
    List<OutboxMessage> messages = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      messages.add(
          OutboxMessage.builder()
              .aggregateType("order")
              .aggregateId("kill-" + (i % 300))
              .type("OrderChanged")
              .payload("{\"n\":" + i + "}")
              .build());
    }
    try (java.sql.Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      outbox.saveAll(c, messages);
      c.commit();
    }
    // A mark that fails (a database error: MariaDB has been seen to report a deadlock on it) drops
    // that round's batches, which go out again: the same amount as a kill, counted separately.
    AtomicInteger failedRounds = new AtomicInteger();
    RelayListener errors =
        new RelayListener() {
          @Override
          public void onError(Exception error, Duration delay) {
            failedRounds.incrementAndGet();
          }
        };
    PollingRelay killed =
        started(
            relay("killed")
                .publisher(dev.outboxrelay.it.SlowAcks.of(kafka(), Duration.ofMillis(400)))
                .batchSize(batchSize)
                .inFlightBatches(inFlightBatches)
                .listener(errors)
                .build());
    await().atMost(Duration.ofSeconds(60)).until(() -> received().size() >= 300);
    killed.abort();
    started(
        relay("successor")
            .publisher(kafka())
            .batchSize(batchSize)
            .inFlightBatches(inFlightBatches)
            .listener(errors)
            .build());
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () ->
                received().stream().map(ReceivedMessage::id).distinct().count() >= messages.size());
    long duplicates =
        received().size() - received().stream().map(ReceivedMessage::id).distinct().count();
    System.out.println(
        "[polling kill] messages="
            + messages.size()
            + " duplicates="
            + duplicates
            + " failedRounds="
            + failedRounds.get());
    assertThat(duplicates)
        .as(
            "duplicates, at most (kills + failed rounds) × batchSize × inFlightBatches"
                + " = (%d + %d) × %d × %d",
            kills, failedRounds.get(), batchSize, inFlightBatches)
        .isLessThanOrEqualTo((long) (kills + failedRounds.get()) * batchSize * inFlightBatches);
  }

  /**
   * A live stream is followed: after a pass that published rows the relay polls again within
   * milliseconds, and after a quiet spell within about the quiet's length, so rows that keep coming
   * do not wait for the poll interval (five minutes here, and no NOTIFY). Each row is committed
   * once the one before reached the topic, so a slow machine only lengthens the quiet before it;
   * without the follow-ups the second row would wait the whole five minutes.
   */
  @Test
  void aLiveStreamIsFollowedWithoutWaitingForThePollInterval() throws Exception {
    List<OutboxMessage> sent = new ArrayList<>(commit("live", 1)); // the first pass finds it
    started(
        relay("follower")
            .publisher(kafka())
            .listenNotify(false)
            // A rebalance is a pass too, every third of the lease: keep both far off.
            .leaseDuration(Duration.ofMinutes(5))
            .pollInterval(Duration.ofMinutes(5))
            .build());
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("live").size() == 1);
    for (int n = 2; n <= 10; n++) {
      sent.addAll(commit("live", 1));
      int expected = n;
      await().atMost(Duration.ofSeconds(60)).until(() -> receivedIds("live").size() == expected);
    }
    assertThat(receivedIds("live")).containsExactlyElementsOf(ids(sent));
    await().atMost(Duration.ofSeconds(30)).until(() -> count("SELECT COUNT(*) FROM outbox") == 0);
  }

  @Test
  void gracefulStopReleasesTheLeases() throws Exception {
    PollingRelay relay = started(relay("graceful").publisher(kafka()).build());
    await().until(() -> !relay.ownedBuckets().isEmpty());
    commit("g", 5);
    relay.close();
    assertThat(count("SELECT COUNT(*) FROM outbox_lease WHERE owner IS NOT NULL")).isZero();
    assertThat(count("SELECT COUNT(*) FROM outbox_relay")).isZero();
  }

  @Test
  void keptRowsCanBeReplayed() throws Exception {
    started(
        relay("keep").publisher(kafka()).retention(Retention.keepFor(Duration.ofHours(1))).build());
    List<OutboxMessage> sent = commit("kept", 3);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("kept").size() == 3);
    // Awaited, not read at once: a live stream's rows are marked up to 50 ms after their
    // acknowledgements (PendingMarks.MARK_DELAY), so the consumer may see them first.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count("SELECT COUNT(*) FROM outbox WHERE published_at IS NOT NULL") == 3);
    assertThat(OutboxAdmin.of(dataSource, OutboxTable.defaults()).replay(sent.get(1).id()))
        .isTrue();
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("kept").size() == 4);
    assertThat(receivedIds("kept").get(3)).isEqualTo(sent.get(1).id());
  }

  /**
   * With published rows kept, a mark is an UPDATE. Beside a writer's open transaction on a table of
   * a few rows it must neither wait for that transaction nor hold up the rows after it. On MariaDB,
   * without an index hint ({@code FORCE INDEX}), the mark's multi-table UPDATE of a table of five
   * rows or fewer is planned as a full scan, which waits for the open insert until the lock wait
   * timeout (50 s).
   */
  @Test
  void keptRowsAreMarkedBesideAnOpenTransaction() throws Exception {
    started(
        relay("beside")
            .publisher(kafka())
            .retention(Retention.keepFor(Duration.ofHours(1)))
            .build());
    try (Connection open = dataSource.getConnection()) {
      open.setAutoCommit(false);
      // Without key order: the writer's key lock could otherwise hold up a key of the same slot.
      Outbox.builder().keyOrder(false).build().saveAll(open, oneMessage("held"));
      List<OutboxMessage> sent = new ArrayList<>();
      for (int n = 1; n <= 3; n++) {
        sent.addAll(commit("beside", 1));
        long expected = n;
        await()
            .alias("row " + n + " published and marked while a transaction is open")
            .atMost(Duration.ofSeconds(20))
            .until(
                () ->
                    count("SELECT COUNT(*) FROM outbox WHERE published_at IS NOT NULL")
                        == expected);
      }
      assertThat(receivedIds("beside")).containsExactlyElementsOf(ids(sent));
      open.rollback();
    }
  }

  private static List<OutboxMessage> oneMessage(String key) {
    return List.of(
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId(key)
            .type("OrderChanged")
            .payload("{}")
            .build());
  }

  @Test
  void keptRowsArePurgedAfterTheWindow() throws Exception {
    started(
        relay("purge")
            .publisher(kafka())
            .retention(Retention.keepFor(Duration.ofSeconds(1)))
            .build());
    commit("purged", 5);
    await().atMost(Duration.ofSeconds(30)).until(() -> receivedIds("purged").size() == 5);
    await().atMost(Duration.ofSeconds(30)).until(() -> count("SELECT COUNT(*) FROM outbox") == 0);
  }
}
