package dev.outboxrelay.it.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.it.KafkaDbFixture;
import dev.outboxrelay.relay.engine.DeadLetterSweep;
import dev.outboxrelay.relay.engine.DeadLetters;
import dev.outboxrelay.relay.engine.DiscardedMessage;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.relay.engine.ParkedKey;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.engine.StateSql;
import dev.outboxrelay.relay.engine.Ticker;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.InMemoryPublisher;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OutboxAdmin} on a real database: the state a relay writes (parked keys, kept rows, leases)
 * read and changed by the operator's actions. A subclass per database.
 */
abstract class OutboxAdminContract {
  private static final Duration KEEP = Duration.ofHours(1);

  private final OutboxTable table = OutboxTable.defaults();
  private final Outbox outbox = Outbox.builder().build();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  protected HikariDataSource dataSource;
  protected OutboxAdmin admin;

  protected abstract DatabaseServer database();

  @BeforeEach
  void setUp() throws SQLException {
    dataSource = database().dataSource(database().createDatabase(), 8);
    try (Connection c = dataSource.getConnection()) {
      OutboxSchema.createIfMissing(c, table);
    }
    admin = OutboxAdmin.of(dataSource, table);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    dataSource.close();
  }

  @Test
  void aKeyParkedByARelayIsListedAndResumesAtItsMessageWhenUnparked() throws Exception {
    InMemoryPublisher publisher =
        new InMemoryPublisher()
            .failWith(
                m ->
                    m.aggregateId().equals("poisoned")
                        ? new NonRetriablePublishException("too large (injected)", null)
                        : null);
    List<OutboxMessage> poisoned = save("poisoned", 2);
    save("healthy", 2);
    relay(publisher, Retention.deleteImmediately());
    await().atMost(Duration.ofSeconds(30)).until(() -> !admin.parked().isEmpty());
    ParkedKey parked = admin.parked().get(0);
    assertThat(parked.aggregateId()).isEqualTo("poisoned");
    assertThat(parked.messageId()).isEqualTo(poisoned.get(0).id());
    assertThat(parked.reason()).contains("too large (injected)");
    assertThat(parked.parkedAt()).isNotNull();
    await().atMost(Duration.ofSeconds(30)).until(() -> admin.pendingCount() == 2);

    publisher.failWith(m -> null);
    assertThat(admin.unpark("poisoned")).isTrue();
    await().atMost(Duration.ofSeconds(30)).until(() -> admin.pendingCount() == 0);
    assertThat(admin.parked()).isEmpty();
    assertThat(admin.unpark("poisoned")).as("a key that is not parked").isFalse();
    assertThat(
            publisher.acknowledged().stream()
                .filter(m -> m.aggregateId().equals("poisoned"))
                .map(OutboxMessage::id))
        .containsExactly(poisoned.get(0).id(), poisoned.get(1).id());
  }

  @Test
  void aDiscardDropsTheParkedMessageRecordsWhoDecidedAndUnparksTheKey() throws Exception {
    List<OutboxMessage> messages = save("k", 2);
    park(messages.get(0), "rejected by the broker");
    assertThat(admin.discardParked("k", Retention.deleteImmediately(), "ops@test")).isTrue();

    assertThat(admin.parked()).isEmpty();
    assertThat(admin.pendingCount()).as("the discarded row is deleted").isEqualTo(1);
    List<DiscardedMessage> discarded = admin.discarded();
    assertThat(discarded).hasSize(1);
    assertThat(discarded.get(0).messageId()).isEqualTo(messages.get(0).id());
    assertThat(discarded.get(0).aggregateId()).isEqualTo("k");
    assertThat(discarded.get(0).reason()).isEqualTo("rejected by the broker");
    assertThat(discarded.get(0).discardedBy()).isEqualTo("ops@test");
    assertThat(admin.discardParked("k", Retention.deleteImmediately(), "ops@test"))
        .as("nothing is parked any more")
        .isFalse();
    assertThatThrownBy(() -> admin.discardParked("k", Retention.deleteImmediately(), " "))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aDiscardedKeptRowIsMarkedPublishedAndNeverReplayed() throws Exception {
    List<OutboxMessage> messages = save("k", 1);
    park(messages.get(0), "rejected");
    assertThat(admin.discardParked("k", Retention.keepFor(KEEP), "ops@test")).isTrue();
    assertThat(admin.pendingCount()).isZero();
    assertThat(admin.replay(messages.get(0).id())).isFalse();
    assertThat(admin.replayKey("k")).isZero();
    assertThat(admin.replaySince(Instant.now().minus(KEEP))).isZero();
    assertThat(admin.pendingCount()).isZero();
  }

  @Test
  void keptRowsAreReadBackAndReplayedByMessageKeyAndTime() throws Exception {
    List<OutboxMessage> a = save("a", 3);
    List<OutboxMessage> b = save("b", 2);
    Instant from = Instant.now().minus(KEEP);
    Instant to = Instant.now().plus(KEEP);
    assertThat(admin.replay(a.get(0).id())).as("pending: nothing to replay").isFalse();
    relay(new InMemoryPublisher(), Retention.keepFor(KEEP));
    await().atMost(Duration.ofSeconds(30)).until(() -> admin.pendingCount() == 0);
    assertThat(admin.leaseOwners().values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(OutboxTable.BUCKETS);
    closeRelays();

    List<UUID> kept = new ArrayList<>();
    assertThat(admin.publishedBetween(from, to, m -> kept.add(m.id()))).isEqualTo(5);
    assertThat(kept).containsExactlyElementsOf(ids(a, b));
    assertThat(admin.replay(b.get(1).id())).isTrue();
    assertThat(admin.pendingCount()).isEqualTo(1);
    assertThat(admin.replayKey("a")).isEqualTo(3);
    assertThat(admin.replaySince(from)).as("the rest of b").isEqualTo(1);
    assertThat(admin.pendingCount()).isEqualTo(5);
    assertThat(admin.replay(UUID.randomUUID())).as("no such row").isFalse();
  }

  /**
   * The key was unparked and parked again at the same message while its copy was in flight: the
   * acknowledged copy belongs to the first parking and is not recorded against the second, which
   * stays due for a copy of its own.
   */
  @Test
  void aCopyIsNotRecordedAgainstALaterParkingOfTheSameMessage() throws Exception {
    OutboxMessage m = save("again", 1).get(0);
    StateSql sql = StateSql.of(table, database().dialect());
    park(m, "rejected");
    DeadLetters.Due first;
    try (Connection c = dataSource.getConnection()) {
      first = DeadLetters.due(c, sql, List.of(), 10).get(0);
    }
    assertThat(admin.unpark(m.aggregateId())).isTrue();
    park(m, "rejected again");
    try (Connection c = dataSource.getConnection()) {
      List<DeadLetters.Due> due = DeadLetters.due(c, sql, List.of(), 10);
      assertThat(due).extracting(DeadLetters.Due::reason).containsExactly("rejected again");
      assertThat(due.get(0).parkedAt()).isAfter(first.parkedAt());
      assertThat(DeadLetters.record(c, sql, first, "orders-dlq")).as("recorded").isFalse();
      assertThat(DeadLetters.due(c, sql, List.of(), 10)).as("still due").hasSize(1);
      assertThat(DeadLetters.record(c, sql, due.get(0), "orders-dlq")).as("recorded").isTrue();
      assertThat(DeadLetters.due(c, sql, List.of(), 10)).as("due after its copy").isEmpty();
    }
  }

  /**
   * More parked keys than one round reads (100) whose rows cannot be copied (malformed: their
   * headers are not JSON) do not hide a key parked after them: the next round reads on from where
   * the last stopped.
   */
  @Test
  void keysThatCannotBeCopiedDoNotHideALaterParkedKeyFromTheSweep() throws Exception {
    List<OutboxMessage> broken = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      broken.add(save("broken-" + i, 1).get(0));
    }
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE outbox SET headers = '{not json' WHERE aggregateid LIKE 'broken-%'")) {
      assertThat(ps.executeUpdate()).isEqualTo(101);
    }
    for (OutboxMessage m : broken) {
      parkAlso(m, "malformed row");
    }
    OutboxMessage good = save("good", 1).get(0);
    parkAlso(good, "rejected");
    assertThat(admin.parked()).hasSize(102);
    List<OutboxMessage> copies = new java.util.concurrent.CopyOnWriteArrayList<>();
    Publisher deadLetters =
        new Publisher() {
          @Override
          public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
            throw new UnsupportedOperationException("the sweep only copies");
          }

          @Override
          public CompletionStage<List<PublishResult>> publishTo(
              String topic, List<OutboxMessage> batch) {
            copies.addAll(batch);
            return CompletableFuture.completedFuture(
                batch.stream().map(PublishResult::acknowledged).toList());
          }

          @Override
          public void close() {}
        };
    DeadLetterSweep sweep =
        new DeadLetterSweep(
            new DeadLetterSweep.Settings(
                "sweep",
                deadLetters,
                "orders-dlq",
                Duration.ofSeconds(5),
                attempt -> 100L,
                new RelayListener() {}),
            dataSource::getConnection,
            StateSql.of(table, database().dialect()),
            Ticker.system());
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              sweep.run(List.of());
              return copies.stream().anyMatch(m -> m.id().equals(good.id()));
            });
    assertThat(copies).extracting(OutboxMessage::id).containsExactly(good.id());
  }

  @Test
  void theBacklogIsThePendingRowsAndTheirAgeOnTheDatabaseClock() throws Exception {
    assertThat(admin.pendingCount()).isZero();
    assertThat(admin.oldestPendingAge()).isEmpty();
    assertThat(admin.leaseOwners()).isEmpty();
    save("k", 3);
    assertThat(admin.pendingCount()).isEqualTo(3);
    assertThat(admin.oldestPendingAge())
        .hasValueSatisfying(age -> assertThat(age).isLessThan(KEEP));
  }

  @Test
  void aMissingStateTableFailsNamingTheTable() {
    OutboxAdmin other = OutboxAdmin.of(dataSource, OutboxTable.builder().name("elsewhere").build());
    assertThatThrownBy(other::parked)
        .isInstanceOf(OutboxDatabaseException.class)
        .hasMessageContaining("elsewhere");
  }

  private List<OutboxMessage> save(String key, int count) throws SQLException {
    return KafkaDbFixture.commit(dataSource, outbox, key, count);
  }

  /** Parks a key with the statement the CDC relay runs (no lease to hold); the only parked key. */
  private void park(OutboxMessage m, String reason) throws SQLException {
    parkAlso(m, reason);
    assertThat(admin.parked()).extracting(ParkedKey::aggregateId).containsExactly(m.aggregateId());
  }

  /** Parks a key with the statement the CDC relay runs, beside any others parked. */
  private void parkAlso(OutboxMessage m, String reason) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      StateSql sql = StateSql.of(table, database().dialect());
      try (PreparedStatement ps = c.prepareStatement(sql.park())) {
        ps.setString(1, m.aggregateId());
        sql.setId(ps, 2, m.id());
        ps.setInt(3, 0);
        ps.setString(4, StateSql.reason(reason));
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
    }
  }

  private void relay(InMemoryPublisher publisher, Retention retention) {
    PollingRelay relay =
        PollingRelay.builder()
            .name("admin-it")
            .dataSource(dataSource)
            .publisher(publisher)
            .retention(retention)
            .leaseDuration(Duration.ofSeconds(2))
            .pollInterval(Duration.ofMillis(100))
            .backoffInitial(Duration.ofMillis(100))
            .backoffMax(Duration.ofSeconds(1))
            .build();
    closeables.add(relay);
    relay.start();
  }

  private void closeRelays() throws Exception {
    for (AutoCloseable c : closeables) {
      c.close();
    }
    closeables.clear();
  }

  @SafeVarargs
  private static List<UUID> ids(List<OutboxMessage>... lists) {
    List<UUID> ids = new ArrayList<>();
    for (List<OutboxMessage> l : lists) {
      l.forEach(m -> ids.add(m.id()));
    }
    return ids;
  }
}
