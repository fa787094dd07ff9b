package dev.outboxrelay.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Key order: same-key writers serialize from save to commit, so seq follows commit order. */
abstract class KeyOrderContract extends WriterFixture {

  @Test
  void aBlockedWriterDrawsItsSeqAfterTheLockHolderCommits() throws Exception {
    OutboxMessage first = message("k");
    OutboxMessage second = message("k");
    OutboxMessage other = message("other");
    // The key's lock exists already (MySQL: its slot row), so T1's lock changes nothing: the
    // exclusive row lock of INSERT ... ON DUPLICATE KEY UPDATE must still hold until T1 commits.
    OutboxMessage earlier = message("k");
    saveAndCommit(outbox, earlier);
    try (Connection t1 = begin()) {
      outbox.save(t1, first);
      CompletableFuture<Void> t2 = CompletableFuture.runAsync(() -> saveAndCommit(outbox, second));
      // T2 reaches the lock and waits there (not merely late to start), and stays blocked while
      // T1 is open: its lock comes before its seq.
      await().atMost(Duration.ofSeconds(10)).until(() -> lockWaits() > 0);
      await()
          .during(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !t2.isDone());
      saveAndCommit(outbox, other);
      t1.commit();
      t2.get();
    }
    Map<java.util.UUID, Long> seq = seqById();
    assertThat(seq.get(earlier.id())).isLessThan(seq.get(first.id()));
    assertThat(seq.get(first.id())).isLessThan(seq.get(other.id()));
    // Drawn after T1 committed, hence after 'other': the lock is taken before the identity.
    assertThat(seq.get(second.id())).isGreaterThan(seq.get(other.id()));
    assertThat(rows())
        .allSatisfy(
            r ->
                assertThat(r.headers())
                    .containsEntry(MessageContract.HEADER_SEQUENCE_ORDER, "key"));
  }

  @Test
  void withoutKeyOrderSameKeyWritersCommitInEitherOrderAndCarryNoMarker() throws Exception {
    Outbox unordered = Outbox.builder().keyOrder(false).build();
    OutboxMessage first = message("k");
    OutboxMessage second =
        message("k").toBuilder().header(MessageContract.HEADER_SEQUENCE_ORDER, "key").build();
    try (Connection t1 = begin()) {
      unordered.save(t1, first);
      CompletableFuture.runAsync(() -> saveAndCommit(unordered, second)).get();
      t1.commit();
    }
    Map<java.util.UUID, Long> seq = seqById();
    assertThat(seq.get(first.id())).isLessThan(seq.get(second.id()));
    // The copied marker is removed: this writer does not keep the order it promises.
    assertThat(rows()).allSatisfy(r -> assertThat(r.headers()).isEmpty());
  }

  @Test
  void saveAllLocksEveryKeyOfTheBatch() throws Exception {
    try (Connection t1 = begin()) {
      outbox.saveAll(t1, List.of(message("a"), message("b"), message("c")));
      CompletableFuture<Void> t2 =
          CompletableFuture.runAsync(() -> saveAndCommit(outbox, message("c")));
      await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !t2.isDone());
      t1.commit();
      t2.get();
    }
    assertThat(rows()).hasSize(4);
  }

  @Test
  void aWriterThatQualifiesTheTableTakesTheSameLocks() throws Exception {
    String schema;
    try (Connection c = connect();
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs =
            st.executeQuery(
                server().dialect() == dev.outboxrelay.core.SqlDialect.POSTGRESQL
                    ? "SELECT current_schema()"
                    : "SELECT DATABASE()")) {
      rs.next();
      schema = rs.getString(1);
    }
    Outbox qualified =
        Outbox.builder()
            .table(dev.outboxrelay.core.OutboxTable.builder().name("outbox").schema(schema).build())
            .build();
    try (Connection t1 = begin()) {
      qualified.save(t1, message("k"));
      CompletableFuture<Void> t2 =
          CompletableFuture.runAsync(() -> saveAndCommit(outbox, message("k")));
      // Two spellings of one physical table: the second writer must wait like any same-key writer.
      await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !t2.isDone());
      t1.commit();
      t2.get();
    }
    assertThat(rows()).hasSize(2);
  }

  @Test
  void autoCommitSavesKeepTheLockWithTheirRowsAndLeaveAutoCommitOn() throws Exception {
    Outbox autoCommit = Outbox.builder().requireTransaction(false).build();
    try (Connection c = connect()) {
      autoCommit.saveAll(c, List.of(message("a"), message("b")));
      assertThat(c.getAutoCommit()).isTrue();
    }
    assertThat(rows())
        .hasSize(2)
        .allSatisfy(
            r ->
                assertThat(r.headers())
                    .containsEntry(MessageContract.HEADER_SEQUENCE_ORDER, "key"));
  }

  /** Sessions of this server waiting for a lock: advisory locks, or InnoDB row locks. */
  private long lockWaits() throws java.sql.SQLException {
    String sql =
        server().dialect() == dev.outboxrelay.core.SqlDialect.POSTGRESQL
            ? "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            : "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'";
    try (Connection c = connect();
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private void saveAndCommit(Outbox writer, OutboxMessage m) {
    try (Connection c = begin()) {
      writer.save(c, m);
      c.commit();
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private Map<java.util.UUID, Long> seqById() throws Exception {
    return rows().stream()
        .collect(Collectors.toMap(OutboxMessage::id, r -> r.sequence().getAsLong(), (a, b) -> a));
  }
}
