package dev.outboxrelay.it.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.it.KafkaDbFixture;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.cdc.CdcRelayBuilder;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.testing.DeliveryCheck;
import dev.outboxrelay.writer.Outbox;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A writer whose transaction stays open must not hold up rows that other transactions committed. On
 * MariaDB the relay reads pending rows with shared locks, to wait for a commit the binlog carried
 * before InnoDB made it visible; a locking read planned as a table scan also waited for every
 * uncommitted insert it met, here writer A's, until A ended. A subclass per database.
 */
abstract class OpenTransactionBehaviour extends KafkaDbFixture {
  /**
   * Writer A keeps its insert uncommitted this long at most; it commits once the others are out.
   */
  static final Duration HOLD = Duration.ofSeconds(20);

  /**
   * Longest time allowed from the others' commit (catch-up: from {@code start()} returning) to the
   * acknowledgement of the last of them. A relay that waits for nobody needs a poll interval (20
   * ms), a few statements and a Kafka round trip per batch, and for the catch-up the stream's way
   * to the fence: well under a second here; the rest is slack for a loaded 2-core machine. A relay
   * that waits for A waits until A ends, at {@link #HOLD}: four times the bound.
   */
  static final Duration BOUND = Duration.ofSeconds(5);

  // Without key order A takes no key-lock slot: another key on A's slot would wait for A in the
  // writer (CRC-32 & 0xFFFF), which is not what this test is about.
  private final Outbox unordered = Outbox.builder().keyOrder(false).build();
  private AckTimes acks;

  /**
   * The case as reported: one row on another key. MariaDB 10.11 reads {@code id IN (one id)} as a
   * constant lookup, so this one did not wait before the fix either.
   */
  @Test
  void aRowCommittedBesideAnOpenTransactionGoesOutAtOnce() throws Exception {
    started();
    List<OutboxMessage> beside = messages("beside", 1, 1);
    besideAnOpenTransaction(List.of(), beside, () -> commitAll(beside));
  }

  /**
   * Three rows in one transaction, so one batch: MariaDB 10.11 reads {@code id IN (3 ids)} on this
   * small table by a full index scan (one id is a constant lookup, which is why a single row does
   * not show the wait).
   */
  @Test
  void aFewRowsCommittedBesideAnOpenTransactionGoOutAtOnce() throws Exception {
    started();
    List<OutboxMessage> few = messages("few", 3, 1);
    besideAnOpenTransaction(List.of(), few, () -> commitAll(few));
  }

  /** 300 rows in one batch on a table of 301: MariaDB 10.11 scans for an id list that long. */
  @Test
  void aLargeBatchCommittedBesideAnOpenTransactionGoesOutAtOnce() throws Exception {
    started();
    List<OutboxMessage> large = messages("large", 30, 10);
    besideAnOpenTransaction(List.of(), large, () -> commitAll(large));
  }

  /**
   * A backlog committed while the relay was stopped is read from the table by sequence at the
   * restart (catch-up). The first run creates the stream's position: a PostgreSQL slot is not
   * created while a transaction is open.
   */
  @Test
  void aBacklogCaughtUpBesideAnOpenTransactionGoesOutAtOnce() throws Exception {
    CdcRelay first = started();
    List<OutboxMessage> warm = commitAll(messages("warm", 1, 1));
    await().atMost(Duration.ofSeconds(60)).until(() -> receivedIds("warm-0").size() == 1);
    first.close();
    List<OutboxMessage> backlog = messages("backlog", 30, 10);
    commitAll(backlog);
    besideAnOpenTransaction(warm, backlog, this::started);
  }

  /**
   * Kept rows ({@code retention(Retention.keepFor(...))}) are purged while A is open. The purge was
   * one {@code DELETE} by {@code published_at}: a locking scan that waited for A while it held the
   * relay's batch lock, so the stream stood still too. One row per transaction, so that only the
   * purge can wait (an id list of one is a constant lookup).
   */
  @Test
  void keptRowsArePurgedBesideAnOpenTransactionWithoutHoldingUpTheStream() throws Exception {
    Duration window = Duration.ofSeconds(1);
    started(b -> b.retention(Retention.keepFor(window)));
    List<OutboxMessage> kept = messages("kept", 1, 1);
    List<OutboxMessage> after = messages("after", 1, 1);
    besideAnOpenTransaction(
        kept,
        after,
        () -> {
          commitAll(kept);
          assertThat(acks.awaitAll(ids(kept), BOUND)).as("kept row acknowledged").isTrue();
          try {
            // The purge runs at most once per window, for rows older than it: two windows for
            // the row to come due, then the bound.
            await()
                .alias("kept row purged while A is open")
                .atMost(BOUND.plus(window.multipliedBy(2)))
                .until(
                    () -> count("SELECT COUNT(*) FROM outbox WHERE aggregateid = 'kept-0'") == 0);
          } catch (ConditionTimeoutException e) {
            System.out.printf(
                "[%s] waiting for locks: %s%n", getClass().getSimpleName(), lockWaits());
            throw e;
          }
          return commitAll(after);
        });
  }

  /**
   * Writer A inserts a row and keeps it uncommitted; then {@code release} makes the others' rows
   * available (commits them, or starts a relay that catches them up), and all of them must be
   * acknowledged within {@link #BOUND}. Then A commits: its row goes out too, nothing is lost and
   * every key keeps its order ({@code earlier}: delivered before the test began).
   */
  private void besideAnOpenTransaction(
      List<OutboxMessage> earlier, List<OutboxMessage> others, Callable<?> release)
      throws Exception {
    OutboxMessage held = messages("held", 1, 1).get(0);
    long since;
    boolean whileOpen;
    try (Connection a = dataSource.getConnection()) {
      a.setAutoCommit(false);
      unordered.saveAll(a, List.of(held));
      release.call();
      since = System.nanoTime();
      whileOpen = acks.awaitAll(ids(others), HOLD);
      if (!whileOpen) {
        System.out.printf("[%s] waiting for locks: %s%n", getClass().getSimpleName(), lockWaits());
      }
      a.commit();
    }
    List<OutboxMessage> all = new ArrayList<>(earlier);
    all.addAll(others);
    all.add(held);
    await().atMost(Duration.ofSeconds(60)).until(() -> check(all).lost().isEmpty());
    DeliveryCheck check = check(all);
    Duration took = acks.lastAckAfter(ids(others), since);
    System.out.printf(
        "[%s] %d rows beside a transaction open for up to %d s: last acknowledged after %d ms"
            + " (%s); %s%n",
        getClass().getSimpleName(),
        others.size(),
        HOLD.toSeconds(),
        took.toMillis(),
        whileOpen ? "while it was open" : "after it committed",
        check);
    assertThat(whileOpen).as("all acknowledged while A was open (%s)", took).isTrue();
    assertThat(took).as("commit to last acknowledgement").isLessThan(BOUND);
    assertThat(check.holds()).as(check.toString()).isTrue();
  }

  /** The statements waiting for a lock now, for the report of a failure. */
  String lockWaits() throws Exception {
    return "";
  }

  private CdcRelay started() {
    return started(b -> b);
  }

  private CdcRelay started(UnaryOperator<CdcRelayBuilder> settings) {
    if (acks == null) {
      acks = new AckTimes(kafka()); // after setUp: the topic template is made there
    }
    CdcRelayBuilder builder =
        CdcRelay.builder()
            .name("cdc_" + dataSource.getPoolName())
            .source(dataSource.getJdbcUrl(), dataSource.getUsername(), dataSource.getPassword())
            .dataSource(dataSource)
            .publisher(acks);
    CdcRelay relay = settings.apply(builder).build();
    closeables.add(relay);
    return relay.start();
  }

  private DeliveryCheck check(List<OutboxMessage> committed) {
    Map<String, List<java.util.UUID>> byKey = new LinkedHashMap<>();
    committed.forEach(
        m -> byKey.computeIfAbsent(m.aggregateId(), k -> new ArrayList<>()).add(m.id()));
    return DeliveryCheck.of(byKey, List.of(), received());
  }

  /** {@code keys × perKey} messages, keys interleaved, each key's in insertion order. */
  private static List<OutboxMessage> messages(String prefix, int keys, int perKey) {
    List<OutboxMessage> messages = new ArrayList<>();
    for (int i = 0; i < keys * perKey; i++) {
      messages.add(
          OutboxMessage.builder()
              .aggregateType("order")
              .aggregateId(prefix + "-" + i % keys)
              .type("OrderChanged")
              .payload("{\"n\":" + i + "}")
              .build());
    }
    return messages;
  }

  private List<OutboxMessage> commitAll(List<OutboxMessage> messages) throws Exception {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      outbox.saveAll(c, messages);
      c.commit();
    }
    return messages;
  }
}
