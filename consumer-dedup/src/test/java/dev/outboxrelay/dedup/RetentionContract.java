package dev.outboxrelay.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Per-key high-water mark and retention purge on one database. */
abstract class RetentionContract extends DbFixture {
  private static final Duration HORIZON = Duration.ofDays(1);

  @Test
  void highWaterMarkRejectsAnOlderSequenceOfTheKey() throws Exception {
    MessageHandler<MessageIdentity> handler = withMark("billing");

    assertThat(handler.handle(ordered("order-1", 5L))).isEqualTo(Outcome.PROCESSED);
    assertThat(handler.handle(ordered("order-1", 3L))).isEqualTo(Outcome.STALE);
    assertThat(handler.handle(ordered("order-1", 5L))).isEqualTo(Outcome.STALE);
    assertThat(handler.handle(ordered("order-2", 1L))).isEqualTo(Outcome.PROCESSED);
    assertThat(handler.handle(ordered("order-1", 7L))).isEqualTo(Outcome.PROCESSED);
    assertThat(handler.handle(MessageIdentity.of(newId()))).isEqualTo(Outcome.PROCESSED);

    assertThat(effects()).isEqualTo(4);
    assertThat(store.highWaterMark("billing", "order-1")).hasValue(7);
    assertThat(store.highWaterMark("shipping", "order-1")).isEmpty();
  }

  @Test
  void aSequenceWithoutTheKeyOrderPromiseIsNeverStaleAndIsCounted() throws Exception {
    List<MessageIdentity> counted = new java.util.concurrent.CopyOnWriteArrayList<>();
    MessageHandler<MessageIdentity> handler =
        Dedup.builder()
            .store(store)
            .group("billing")
            .highWaterMark(true)
            .listener(
                new DedupListener() {
                  @Override
                  public void onUnorderedSequence(String group, MessageIdentity message) {
                    counted.add(message);
                  }
                })
            .build()
            .transactional(Function.identity(), effect());
    MessageIdentity late = new MessageIdentity(newId(), "order-1", 3L);

    assertThat(handler.handle(ordered("order-1", 5L))).isEqualTo(Outcome.PROCESSED);
    // Committed after seq 5 by a writer without key order: processed, and the mark stays at 5.
    assertThat(handler.handle(late)).isEqualTo(Outcome.PROCESSED);
    assertThat(handler.handle(new MessageIdentity(newId(), "order-1", 9L)))
        .isEqualTo(Outcome.PROCESSED);
    assertThat(handler.handle(late)).isEqualTo(Outcome.DUPLICATE);
    assertThat(handler.handle(ordered("order-1", 7L))).isEqualTo(Outcome.PROCESSED);

    assertThat(effects()).isEqualTo(4);
    assertThat(store.highWaterMark("billing", "order-1")).hasValue(7);
    assertThat(counted).extracting(MessageIdentity::sequence).containsExactly(3L, 9L);
  }

  @Test
  void purgeDeletesOldRecordsInBoundedBatches() throws Exception {
    MessageHandler<MessageIdentity> handler =
        dedup("billing").transactional(Function.identity(), effect());
    List<String> old = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      MessageIdentity m = MessageIdentity.of(newId());
      handler.handle(m);
      old.add(m.id());
    }
    age();
    MessageIdentity fresh = MessageIdentity.of(newId());
    handler.handle(fresh);

    assertThat(store.purgeBatch(HORIZON)).isEqualTo(10); // purgeBatchSize of the fixture
    assertThat(store.purge(HORIZON)).isEqualTo(15);
    assertThat(store.purge(HORIZON)).isZero();

    assertThat(old).noneMatch(id -> store.isProcessed("billing", id));
    assertThat(store.isProcessed("billing", fresh.id())).isTrue();
  }

  @Test
  void afterPurgeOnlyTheHighWaterMarkStopsAReplay() throws Exception {
    MessageIdentity message = ordered("order-1", 5L);
    MessageHandler<MessageIdentity> marked = withMark("with-mark");
    MessageHandler<MessageIdentity> plain =
        dedup("without-mark").transactional(Function.identity(), effect());
    marked.handle(message);
    plain.handle(message);
    age();
    store.purge(HORIZON);

    // The danger window: a replay older than the horizon is new again to plain dedup.
    assertThat(plain.handle(message)).isEqualTo(Outcome.PROCESSED);
    assertThat(marked.handle(message)).isEqualTo(Outcome.STALE);
    assertThat(effects(message.id())).isEqualTo(3);
  }

  private MessageIdentity ordered(String key, long seq) {
    return new MessageIdentity(newId(), key, seq, true);
  }

  private MessageHandler<MessageIdentity> withMark(String group) {
    return Dedup.builder()
        .store(store)
        .group(group)
        .highWaterMark(true)
        .build()
        .transactional(Function.identity(), effect());
  }

  /** Makes every dedup record two days old. */
  private void age() throws Exception {
    execute("UPDATE outbox_dedup SET processed_at = processed_at - INTERVAL '2' DAY");
  }
}
