package dev.outboxrelay.rocketmqtx;

import static dev.outboxrelay.rocketmqtx.TransactionalOutboxFixture.insertOrder;
import static dev.outboxrelay.rocketmqtx.TransactionalOutboxFixture.order;
import static org.apache.rocketmq.client.producer.LocalTransactionState.COMMIT_MESSAGE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.ReceivedMessage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RocketMqTransactionalOutbox against a real broker (check-back every second) and a real database;
 * a subclass per database. "Not delivered" is shown by a later message of the same topic that is
 * delivered while the first is absent, after the broker got its final answer.
 */
abstract class TransactionalOutboxContract {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private TransactionalOutboxFixture f;

  protected abstract DatabaseServer database();

  /**
   * The subclass' own OpenTelemetry SDK (a static extension field of its class): one shared by both
   * subclasses is shut down after the first class and then makes invalid spans in the second.
   */
  protected abstract OpenTelemetryExtension otel();

  @BeforeEach
  void fresh() throws Exception {
    f = new TransactionalOutboxFixture(database());
  }

  @AfterEach
  void close() throws Exception {
    f.close();
  }

  @Test
  void aCommittedTransactionDeliversItsMessageOnceWithTheRelaysMessageContract() throws Exception {
    RocketMqTransactionalOutbox outbox = f.outbox("a", new TransactionalOutboxListener() {});
    OutboxMessage m = order("o-1");

    TransactionalSend sent = outbox.send(m, c -> insertOrder(c, "o-1"));

    assertThat(sent.id()).isEqualTo(m.id());
    assertThat(sent.answer()).isEqualTo(COMMIT_MESSAGE);
    assertThat(f.count("SELECT count(*) FROM orders WHERE id = 'o-1'")).isEqualTo(1);
    assertThat(f.count("SELECT count(*) FROM outbox WHERE aggregateid = 'o-1'")).isEqualTo(1);
    UUID later = outbox.send(order("o-2"), c -> insertOrder(c, "o-2")).id();
    await().atMost(WAIT).until(() -> f.copiesOf(later) == 1);
    List<ReceivedMessage> copies =
        f.received().stream().filter(r -> r.id().equals(m.id())).toList();
    assertThat(copies).hasSize(1);
    ReceivedMessage r = copies.get(0);
    assertThat(r.key()).isEqualTo("o-1");
    assertThat(r.payload()).isEqualTo(m.payload());
    assertThat(r.headers())
        .containsEntry("id", m.id().toString())
        .containsEntry("type", "OrderPlaced")
        .containsEntry("aggregatetype", "order")
        .containsEntry("aggregateid", "o-1")
        .containsEntry("tenant", "t-1")
        .doesNotContainKeys("seq", "seq-order");
  }

  /** The half message is built before the row is saved; both carry the current span's context. */
  @Test
  void theMessageCarriesTheTraceContextItsRowIsSavedWith() throws Exception {
    RocketMqTransactionalOutbox outbox = f.outbox("t", new TransactionalOutboxListener() {});
    OutboxMessage m = order("o-t");
    Span span = otel().getOpenTelemetry().getTracer("orders").spanBuilder("order").startSpan();
    try (Scope ignored = span.makeCurrent()) {
      outbox.send(m, c -> insertOrder(c, "o-t"));
    } finally {
      span.end();
    }
    // The row's traceparent is the writer's (W3C propagation of the span, flags as it writes them).
    String traceparent = f.text("SELECT traceparent FROM outbox WHERE aggregateid = 'o-t'");
    assertThat(traceparent)
        .startsWith(
            "00-" + span.getSpanContext().getTraceId() + "-" + span.getSpanContext().getSpanId());
    await().atMost(WAIT).until(() -> f.copiesOf(m.id()) == 1);
    assertThat(f.received().stream().filter(r -> r.id().equals(m.id())).findFirst().orElseThrow())
        .extracting(ReceivedMessage::headers)
        .satisfies(h -> assertThat(h).containsEntry("traceparent", traceparent));
  }

  @Test
  void aFailedLocalTransactionRollsBackRowBusinessDataAndMessage() throws Exception {
    RocketMqTransactionalOutbox outbox = f.outbox("a", new TransactionalOutboxListener() {});
    OutboxMessage m = order("o-1");

    assertThatThrownBy(
            () ->
                outbox.send(
                    m,
                    c -> {
                      insertOrder(c, "o-1");
                      throw new IllegalStateException("out of stock");
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("out of stock");

    assertThat(f.count("SELECT count(*) FROM orders")).isZero();
    assertThat(f.count("SELECT count(*) FROM outbox")).isZero();
    UUID later = outbox.send(order("o-2"), c -> insertOrder(c, "o-2")).id();
    await().atMost(WAIT).until(() -> f.copiesOf(later) == 1);
    assertThat(f.copiesOf(m.id())).isZero();
  }

  @Test
  void aCommitWhoseAnswerIsLostIsCommittedByTheCheckBackOfAnotherInstance() throws Exception {
    Checks checksOfB = new Checks();
    sendsFirst(f.outbox("b", checksOfB));
    Checks checksOfA = new Checks();
    RocketMqTransactionalOutbox a = f.outbox("a", new DiesAfterLocalOutcome(checksOfA));
    OutboxMessage m = order("o-1");

    TransactionalSend sent = a.send(m, c -> insertOrder(c, "o-1"));
    a.close(); // the producer is gone before its answer: only b can be asked

    assertThat(sent.answer()).isEqualTo(LocalTransactionState.UNKNOW);
    assertThat(f.count("SELECT count(*) FROM orders WHERE id = 'o-1'")).isEqualTo(1);
    // At least once, not exactly once: a message committed by a check-back can be delivered twice.
    // The broker checks a half message again (every second here) until it has recorded an answer,
    // and each check re-puts the half message, so two checks answered COMMIT commit two copies
    // (seen in CI: the broker's transaction.log had two COMMIT answers one second apart for one
    // message, of two re-put copies, and a wait for exactly one copy timed out; the README says
    // so under Guarantees).
    await().atMost(WAIT).until(() -> f.copiesOf(m.id()) >= 1);
    assertThat(checksOfB.answers.get(m.id())).isEqualTo(COMMIT_MESSAGE);
    assertThat(checksOfA.answers).isEmpty();
  }

  @Test
  void aRollbackWhoseAnswerIsLostIsRolledBackByTheCheckBackOfAnotherInstance() throws Exception {
    Checks checksOfB = new Checks();
    RocketMqTransactionalOutbox b = sendsFirst(f.outbox("b", checksOfB));
    RocketMqTransactionalOutbox a = f.outbox("a", new DiesAfterLocalOutcome(new Checks()));
    OutboxMessage m = order("o-1");

    assertThatThrownBy(
            () ->
                a.send(
                    m,
                    c -> {
                      insertOrder(c, "o-1");
                      throw new IllegalStateException("payment declined");
                    }))
        .hasMessage("payment declined");
    a.close();

    await()
        .atMost(WAIT)
        .until(() -> checksOfB.answers.get(m.id()) == LocalTransactionState.ROLLBACK_MESSAGE);
    UUID later = b.send(order("o-2"), c -> insertOrder(c, "o-2")).id();
    await().atMost(WAIT).until(() -> f.copiesOf(later) == 1);
    assertThat(f.copiesOf(m.id())).isZero();
    assertThat(f.count("SELECT count(*) FROM orders WHERE id = 'o-1'")).isZero();
  }

  @Test
  void aCheckBackWhileTheLocalTransactionRunsIsAnsweredUnknownThenTheCommitDelivers()
      throws Exception {
    Checks checks = new Checks();
    RocketMqTransactionalOutbox outbox = f.outbox("a", checks);
    OutboxMessage m = order("o-1");
    CountDownLatch release = new CountDownLatch(1);

    CompletableFuture<TransactionalSend> sending =
        CompletableFuture.supplyAsync(
            () ->
                outbox.send(
                    m,
                    c -> {
                      insertOrder(c, "o-1");
                      if (!release.await(2, TimeUnit.MINUTES)) {
                        throw new IllegalStateException("never released");
                      }
                    }));

    await().atMost(WAIT).until(() -> checks.answers.get(m.id()) == LocalTransactionState.UNKNOW);
    assertThat(f.copiesOf(m.id())).isZero();
    release.countDown();
    assertThat(sending.get(1, TimeUnit.MINUTES).answer()).isEqualTo(COMMIT_MESSAGE);
    // At least once: a check that re-put the half message before the COMMIT answer was recorded
    // commits a second copy (see aCommitWhoseAnswerIsLost...).
    await().atMost(WAIT).until(() -> f.copiesOf(m.id()) >= 1);
  }

  /**
   * A running instance of the group: it has sent, so it knows the broker and heartbeats to it (the
   * broker asks only producers registered with it; see the README).
   */
  private static RocketMqTransactionalOutbox sendsFirst(RocketMqTransactionalOutbox outbox) {
    outbox.send(order("o-0"), c -> insertOrder(c, "o-0"));
    return outbox;
  }

  /** Records each check-back's answer by message id. */
  static class Checks implements TransactionalOutboxListener {
    final Map<UUID, LocalTransactionState> answers = new ConcurrentHashMap<>();

    @Override
    public void onCheck(UUID id, LocalTransactionState answer) {
      answers.put(id, answer);
    }
  }

  /** A producer that dies after the local outcome, before its answer reaches the broker. */
  static final class DiesAfterLocalOutcome extends Checks {
    private final Checks checks;

    DiesAfterLocalOutcome(Checks checks) {
      this.checks = checks;
    }

    @Override
    public void onLocalCommit(OutboxMessage message) {
      throw new IllegalStateException("producer died after the commit");
    }

    @Override
    public void onLocalRollback(OutboxMessage message, Throwable cause) {
      throw new IllegalStateException("producer died after the rollback");
    }

    @Override
    public void onCheck(UUID id, LocalTransactionState answer) {
      checks.onCheck(id, answer);
    }
  }
}
