package dev.outboxrelay.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.InvalidMessageException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.testing.ContendedWriters;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The late write ({@link OutboxBuffer}): keys are locked only from the flush to the commit, in a
 * fixed order, so writers that save several keys in any order abort no transaction, and a key's
 * {@code seq} still follows commit order.
 */
abstract class LateWriteContract extends WriterFixture {

  /** How a transaction flushes its buffer. */
  enum Path {
    JDBC,
    JDBI
  }

  @ParameterizedTest
  @EnumSource(Path.class)
  void writersSavingManyKeysInRandomOrderAbortNothingAndKeepEachKeysSeqInCommitOrder(Path path)
      throws Exception {
    createOrders();
    ContendedWriters load = new ContendedWriters(this::connect, 40);
    ContendedWriters.Result r = load.run(10, 10, messages -> flushInOneTransaction(path, messages));
    assertThat(r.failures()).as("transactions aborted").isEmpty();
    assertThat(r.regressions()).as("a key's seq seen below a seq already seen").isEmpty();
    List<OutboxMessage> rows = rows();
    assertThat(rows).hasSize(r.committedMessages());
    // Within a transaction, a key's messages keep their save order (payload = their index).
    assertThat(ContendedWriters.outOfSaveOrder(rows)).isEmpty();
  }

  @Test
  void aKeyIsLockedOnlyFromTheFlushToTheCommit() throws Exception {
    OutboxMessage buffered = message("k");
    OutboxMessage before = message("k");
    OutboxMessage after = message("k");
    try (Connection t1 = begin()) {
      OutboxBuffer buffer = outbox.buffer();
      buffer.save(buffered);
      // Saved but not flushed: another writer of the key goes through at once.
      CompletableFuture.runAsync(() -> saveAndCommit(before)).get();
      buffer.flush(t1);
      CompletableFuture<Void> blocked = CompletableFuture.runAsync(() -> saveAndCommit(after));
      await()
          .during(Duration.ofMillis(300))
          .atMost(Duration.ofSeconds(5))
          .until(() -> !blocked.isDone());
      t1.commit();
      blocked.get();
    }
    assertThat(ids()).containsExactly(before.id(), buffered.id(), after.id());
  }

  @Test
  void nothingIsWrittenBeforeTheFlushAndARollbackWritesNothing() throws Exception {
    OutboxBuffer buffer = outbox.buffer();
    try (Connection c = begin()) {
      buffer.save(message("a"));
      assertThat(countInTransaction(c)).isZero();
      buffer.flush(c);
      assertThat(countInTransaction(c)).isOne();
      assertThat(buffer.size()).isZero();
      c.rollback();
    }
    assertThat(rows()).isEmpty();
  }

  @Test
  void aSavepointRolledBackDropsTheMessagesSavedAfterIt() throws Exception {
    OutboxMessage kept = message("a");
    try (Connection c = begin()) {
      OutboxBuffer buffer = outbox.buffer();
      buffer.save(kept);
      int mark = buffer.size();
      var savepoint = c.setSavepoint();
      buffer.save(message("b"));
      c.rollback(savepoint);
      buffer.truncate(mark);
      buffer.flush(c);
      c.commit();
    }
    assertThat(ids()).containsExactly(kept.id());
  }

  @Test
  void anInvalidMessageIsRefusedWhenSavedNotAtTheFlush() {
    OutboxBuffer buffer = outbox.buffer();
    OutboxMessage tooLarge = message("a").toBuilder().payload(new byte[64 * 1024 + 1]).build();
    assertThatThrownBy(() -> buffer.saveAll(List.of(message("b"), tooLarge)))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessageContaining("payload");
    assertThat(buffer.size()).isZero();
  }

  private void flushInOneTransaction(Path path, List<OutboxMessage> messages) throws Exception {
    OutboxBuffer buffer = outbox.buffer();
    if (path == Path.JDBI) {
      Jdbi.create(this::connect)
          .useTransaction(
              h -> {
                saveWithBusinessWrites(h.getConnection(), buffer, messages);
                JdbiOutbox.of(outbox).flush(h, buffer);
              });
      return;
    }
    try (Connection c = begin()) {
      saveWithBusinessWrites(c, buffer, messages);
      buffer.flush(c);
      c.commit();
    }
  }

  /** One order row per message between the saves, so transactions overlap as they would. */
  private static void saveWithBusinessWrites(
      Connection c, OutboxBuffer buffer, List<OutboxMessage> messages) throws Exception {
    for (OutboxMessage m : messages) {
      buffer.save(m);
      insertOrder(c, UUID.randomUUID().toString());
    }
  }

  private void saveAndCommit(OutboxMessage m) {
    try (Connection c = begin()) {
      outbox.save(c, m);
      c.commit();
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static long countInTransaction(Connection c) throws java.sql.SQLException {
    try (var st = c.createStatement();
        var rs = st.executeQuery("SELECT COUNT(*) FROM outbox")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
