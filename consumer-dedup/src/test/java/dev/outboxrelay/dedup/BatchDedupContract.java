package dev.outboxrelay.dedup;

import static dev.outboxrelay.dedup.Outcome.DUPLICATE;
import static dev.outboxrelay.dedup.Outcome.PROCESSED;
import static dev.outboxrelay.dedup.Outcome.STALE;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Batch mode ({@link Dedup#claim}, {@link Dedup#transactionalBatch}) on one database: duplicates
 * inside a batch, a failing message and what commits before it, the high-water mark; racing batches
 * come from {@link BatchRaceContract}. Each database subclass is a few lines.
 */
abstract class BatchDedupContract extends BatchRaceContract {

  @Test
  void aBatchHoldingOneIdTwiceRunsItsHandlerOnce() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    BatchHandler<MessageIdentity> batch =
        dedup("billing").transactionalBatch(Function.identity(), counting(calls));
    MessageIdentity a = MessageIdentity.of(newId());
    MessageIdentity b = MessageIdentity.of(newId());

    BatchOutcome outcome = batch.handle(List.of(a, b, a));

    assertThat(outcome.outcomes()).containsExactly(PROCESSED, PROCESSED, DUPLICATE);
    assertThat(outcome.complete()).isTrue();
    assertThat(calls).hasValue(2);
    assertThat(effects(a.id())).isEqualTo(1);
    assertThat(effects(b.id())).isEqualTo(1);
  }

  @Test
  void anIdProcessedEarlierIsADuplicateInsideABatch() throws Exception {
    Dedup dedup = dedup("billing");
    MessageIdentity earlier = MessageIdentity.of(newId());
    dedup.transactional(Function.identity(), effect()).handle(earlier);
    List<MessageIdentity> batch =
        List.of(MessageIdentity.of(newId()), earlier, MessageIdentity.of(newId()));

    BatchOutcome outcome =
        dedup
            .transactionalBatch(Function.identity(), DedupBatchHandler.each(effect()))
            .handle(batch);

    assertThat(outcome.outcomes()).containsExactly(PROCESSED, DUPLICATE, PROCESSED);
    assertThat(effects()).isEqualTo(3);
    assertThat(distinctEffects()).isEqualTo(3);
    assertThat(batch).allMatch(m -> store.isProcessed("billing", m.id()));
  }

  @Test
  void claimJoinsTheCallersTransaction() throws Exception {
    Dedup dedup = dedup("billing");
    List<MessageIdentity> batch = messages(3);
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      assertThat(dedup.claim(c, batch)).containsOnly(PROCESSED);
      c.rollback();
      assertThat(store.isProcessed("billing", batch.get(0).id())).isFalse();

      List<Outcome> outcomes = dedup.claim(c, List.of(batch.get(0), batch.get(1), batch.get(0)));
      assertThat(outcomes).containsExactly(PROCESSED, PROCESSED, DUPLICATE);
      assertThat(dedup.claim(c, batch)).containsExactly(DUPLICATE, DUPLICATE, PROCESSED);
      assertThat(dedup.claim(c, List.of())).isEmpty();
      c.commit();
    }
    assertThat(batch).allMatch(m -> store.isProcessed("billing", m.id()));
  }

  @Test
  void aKnownIdInAClaimKeepsTheCallersEarlierWritesAndTheNewIds() throws Exception {
    // On PostgreSQL the ids go in with a plain INSERT under a savepoint and, when one is known,
    // again with ON CONFLICT after rolling back to it: the caller's writes before must survive.
    Dedup dedup = dedup("billing");
    MessageIdentity earlier = MessageIdentity.of(newId());
    dedup.transactional(Function.identity(), effect()).handle(earlier);
    List<MessageIdentity> mine = messages(1);
    List<MessageIdentity> batch = List.of(MessageIdentity.of(newId()), earlier);
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      insertEffects(c, mine);
      assertThat(dedup.claim(c, batch)).containsExactly(PROCESSED, DUPLICATE);
      insertEffects(c, batch.subList(0, 1));
      c.commit();
    }
    assertThat(effects()).isEqualTo(3);
    assertThat(store.isProcessed("billing", batch.get(0).id())).isTrue();
  }

  @Test
  void aFailingMessageCommitsThoseBeforeItOnceAndNotTheRest() throws Exception {
    Dedup dedup = dedup("billing");
    List<MessageIdentity> batch = messages(10);
    MessageIdentity bad = batch.get(6);
    BatchHandler<MessageIdentity> failing =
        dedup.transactionalBatch(
            Function.identity(),
            DedupBatchHandler.each(
                (c, m) -> {
                  insertEffect(c, m.id());
                  if (m.equals(bad)) {
                    throw new IllegalStateException("boom");
                  }
                }));

    BatchOutcome outcome = failing.handle(batch);

    assertThat(outcome.committed()).isEqualTo(6);
    assertThat(outcome.outcomes()).containsOnly(PROCESSED);
    assertThat(outcome.failure()).hasRootCauseMessage("boom");
    assertFailedAt(outcome, bad);
    assertEffects(batch, 6);

    BatchOutcome redelivered =
        dedup
            .transactionalBatch(Function.identity(), DedupBatchHandler.each(effect()))
            .handle(batch);
    assertThat(redelivered.outcomes().subList(0, 6)).containsOnly(DUPLICATE);
    assertThat(redelivered.outcomes().subList(6, 10)).containsOnly(PROCESSED);
    assertEffects(batch, 10);
  }

  @Test
  void aWholeBatchHandlerThatThrowsIsBisectedToItsBadMessage() throws Exception {
    List<MessageIdentity> batch = messages(16);
    MessageIdentity bad = batch.get(11);
    AtomicInteger transactions = new AtomicInteger();
    BatchHandler<MessageIdentity> handler =
        dedup("billing")
            .transactionalBatch(
                Function.identity(),
                (c, messages) -> {
                  transactions.incrementAndGet();
                  insertEffects(c, messages);
                  if (messages.contains(bad)) {
                    throw new IllegalStateException("bad message somewhere");
                  }
                });

    BatchOutcome outcome = handler.handle(batch);

    assertThat(outcome.committed()).isEqualTo(11);
    assertFailedAt(outcome, bad);
    assertEffects(batch, 11);
    // the whole batch once, then about 2·log2(16) halves
    assertThat(transactions.get()).isBetween(2, 1 + 2 * 4);
  }

  @Test
  void aBatchItemExceptionNamesTheFailedMessageSoNothingIsBisected() throws Exception {
    Dedup dedup = dedup("billing");
    List<MessageIdentity> batch = messages(6);
    dedup.transactional(Function.identity(), effect()).handle(batch.get(1));
    MessageIdentity bad = batch.get(4);
    AtomicInteger transactions = new AtomicInteger();
    BatchHandler<MessageIdentity> handler =
        dedup.transactionalBatch(
            Function.identity(),
            (c, messages) -> {
              transactions.incrementAndGet();
              insertEffects(c, messages);
              int i =
                  messages.indexOf(bad); // in the list of new messages: the duplicate is not in it
              if (i >= 0) {
                throw new DedupBatchItemException(i, new IllegalStateException("item " + i));
              }
            });

    BatchOutcome outcome = handler.handle(batch);

    assertThat(outcome.outcomes()).containsExactly(PROCESSED, DUPLICATE, PROCESSED, PROCESSED);
    assertThat(outcome.failure()).hasRootCauseMessage("item 3");
    assertFailedAt(outcome, bad);
    assertThat(transactions).hasValue(2); // the batch, then its prefix
    assertEffects(batch, 4);
  }

  @Test
  void theHighWaterMarkWalksABatchInOrderAndAcrossBatches() throws Exception {
    Dedup dedup = Dedup.builder().store(store).group("billing").highWaterMark(true).build();
    BatchHandler<MessageIdentity> handler =
        dedup.transactionalBatch(Function.identity(), DedupBatchHandler.each(effect()));

    BatchOutcome first =
        handler.handle(List.of(seq("k", 5), seq("k", 3), seq("j", 2), seq("k", 7), seq("j", 1)));
    assertThat(first.outcomes()).containsExactly(PROCESSED, STALE, PROCESSED, PROCESSED, STALE);
    assertThat(mark("k")).isEqualTo(7);
    assertThat(mark("j")).isEqualTo(2);

    MessageIdentity unordered = new MessageIdentity(newId(), "k", 1L); // no key-order promise
    BatchOutcome second = handler.handle(List.of(seq("k", 6), seq("k", 8), seq("k", 8), unordered));
    assertThat(second.outcomes()).containsExactly(STALE, PROCESSED, STALE, PROCESSED);
    assertThat(mark("k")).isEqualTo(8);
    assertThat(effects()).isEqualTo(5);
  }

  /**
   * Keys compare as the database compares them: on MySQL/MariaDB (case-insensitive collation) "K"
   * and "k" are one key, on PostgreSQL two. The batch path must agree with the per-message path.
   */
  @Test
  void theBatchAndPerMessagePathsAgreeOnKeysThatDifferOnlyByCase() throws Exception {
    List<MessageIdentity> first = List.of(seq("K", 6));
    List<MessageIdentity> second = List.of(seq("k", 5), seq("K", 8), seq("k", 7));
    Dedup single = Dedup.builder().store(store).group("single").highWaterMark(true).build();
    Dedup batched = Dedup.builder().store(store).group("batched").highWaterMark(true).build();
    MessageHandler<MessageIdentity> perMessage =
        single.transactional(Function.identity(), effect());
    BatchHandler<MessageIdentity> batch =
        batched.transactionalBatch(Function.identity(), DedupBatchHandler.each(effect()));

    List<Outcome> expected = new ArrayList<>();
    for (MessageIdentity m : concat(first, second)) {
      expected.add(perMessage.handle(m));
    }
    List<Outcome> actual = concat(batch.handle(first).outcomes(), batch.handle(second).outcomes());

    assertThat(actual).isEqualTo(expected);
    assertThat(marks("batched")).isEqualTo(marks("single"));
  }

  List<MessageIdentity> messages(int n) {
    return IntStream.range(0, n).mapToObj(i -> MessageIdentity.of(newId())).toList();
  }

  static MessageIdentity seq(String key, long seq) {
    return new MessageIdentity(newId(), key, seq, true);
  }

  /** The group's marks, "key=seq" in key order. */
  List<String> marks(String group) throws Exception {
    List<String> marks = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        var rs =
            c.createStatement()
                .executeQuery(
                    "SELECT aggregate_id, seq FROM outbox_dedup_hwm WHERE consumer_group = '"
                        + group
                        + "' ORDER BY aggregate_id")) {
      while (rs.next()) {
        marks.add(rs.getString(1).toLowerCase() + "=" + rs.getLong(2));
      }
    }
    return marks;
  }

  long mark(String key) throws Exception {
    return count("SELECT seq FROM outbox_dedup_hwm WHERE aggregate_id = '" + key + "'");
  }

  /** The first {@code committed} messages have one effect and are recorded, the rest neither. */
  void assertEffects(List<MessageIdentity> batch, int committed) throws Exception {
    for (int i = 0; i < batch.size(); i++) {
      String id = batch.get(i).id();
      assertThat(effects(id)).as("effects of message %d", i).isEqualTo(i < committed ? 1 : 0);
      assertThat(store.isProcessed("billing", id)).as("message %d", i).isEqualTo(i < committed);
    }
  }

  static void assertFailedAt(BatchOutcome outcome, MessageIdentity bad) {
    assertThat(outcome.complete()).isFalse();
    assertThat(outcome.failure())
        .isInstanceOfSatisfying(
            DedupHandlerException.class, e -> assertThat(e.messageId()).isEqualTo(bad.id()));
  }

  /** One JDBC batch insert of an effect row per message. */
  static void insertEffects(Connection c, List<MessageIdentity> messages) throws Exception {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO effects (message_id) VALUES (?)")) {
      for (MessageIdentity m : messages) {
        ps.setString(1, m.id());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static DedupBatchHandler<MessageIdentity> counting(AtomicInteger calls) {
    return DedupBatchHandler.each(
        (c, m) -> {
          calls.incrementAndGet();
          insertEffect(c, m.id());
        });
  }
}
