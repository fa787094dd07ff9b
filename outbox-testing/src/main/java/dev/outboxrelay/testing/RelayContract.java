package dev.outboxrelay.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayState.Phase;
import dev.outboxrelay.core.RetriablePublishException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What every relay × database must show against a real broker. */
public abstract class RelayContract extends RelayFixture {

  @Test
  void publishesExactlyTheCommittedRowsWhileCommitsLandLate() throws Exception {
    Relay relay = relay("late-commits");
    await().atMost(Duration.ofSeconds(30)).until(() -> relay.state().phase() == Phase.ACTIVE);
    Workload w = new Workload().run(dataSource, this::save, 8, 40, 5, 10, 30);
    DeliveryCheck check = awaitDelivered(w.committedByKey(), w.rolledBack(), w.committedCount());
    System.out.println("[late commits] " + check);
    assertThat(check.lost()).isEmpty();
    assertThat(check.phantom()).as("rolled back rows published").isEmpty();
    assertThat(w.rolledBack()).isNotEmpty();
    relay.close();
    assertThat(relay.state().phase()).isEqualTo(Phase.STOPPED);
  }

  @Test
  void keepsPerKeyOrderWithThreeRelaysAndOneCrashedMidRun() throws Exception {
    // The first relay started is the one a single-reader relay (CDC) streams with: crash it.
    Relay first = relay("relay-1");
    relay("relay-2");
    relay("relay-3");
    Workload w = new Workload();
    CompletableFuture<Workload> writers =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return w.run(dataSource, this::save, 6, 120, 4, 10, 5);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    await().atMost(Duration.ofSeconds(60)).until(() -> received().size() >= 100);
    first.abort();
    assertThat(first.state().phase()).as("after abort()").isEqualTo(Phase.STOPPED);
    await().atMost(Duration.ofSeconds(60)).until(() -> received().size() >= 300);
    relay("relay-1b");
    writers.get(5, TimeUnit.MINUTES);
    DeliveryCheck check = awaitDelivered(w.committedByKey(), w.rolledBack(), w.committedCount());
    System.out.println("[3 relays, 1 crashed mid-run] " + check);
    assertThat(check.orderViolations()).isEmpty();
    assertThat(check.holds()).isTrue();
  }

  @Test
  void aFailingKeyStopsAloneAndRetriesWithGrowingDelays() throws Exception {
    List<Long> attempts = new CopyOnWriteArrayList<>();
    FaultyPublisher faulty =
        new FaultyPublisher(
            newPublisher(topics),
            m -> {
              if (!m.aggregateId().equals("flaky") || attempts.size() >= 4) {
                return null;
              }
              attempts.add(System.nanoTime());
              return new RetriablePublishException("injected failure " + attempts.size(), null);
            });
    List<OutboxMessage> flaky = List.of(Workload.message("flaky"), Workload.message("flaky"));
    commit(flaky);
    List<OutboxMessage> others = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      others.add(Workload.message("steady-" + i));
    }
    // Pending before the start, so the relay takes them up together with the flaky key (a CDC
    // relay's start-up catch-up, or one polling claim): the others must get through while the
    // flaky key is still backing off, whatever the stream's latency.
    commit(others);
    // The relay's wait is from a failed call's completion to the next attempt (a first call that
    // also carries the other keys' messages takes longer to complete).
    List<Long> failedAt = new CopyOnWriteArrayList<>();
    Relay relay =
        relay(
            "retry",
            new Publisher() {
              @Override
              public CompletionStage<List<PublishResult>> publish(List<OutboxMessage> batch) {
                int before = attempts.size();
                return faulty
                    .publish(batch)
                    .whenComplete(
                        (results, error) -> {
                          if (attempts.size() > before) {
                            failedAt.add(System.nanoTime());
                          }
                        });
              }

              @Override
              public void close() {
                faulty.close();
              }
            });
    await().atMost(Duration.ofSeconds(30)).until(() -> received().size() >= others.size());
    assertThat(rowsOfKey("flaky")).as("not marked before the broker acknowledged").isEqualTo(2);
    await().atMost(Duration.ofSeconds(30)).until(() -> received().size() >= 22);
    List<UUID> flakyOrder =
        received().stream().filter(r -> r.key().equals("flaky")).map(ReceivedMessage::id).toList();
    assertThat(flakyOrder).containsExactly(flaky.get(0).id(), flaky.get(1).id());
    assertThat(attempts).hasSize(4);
    long firstGap = attempts.get(1) - failedAt.get(0);
    long lastGap = attempts.get(3) - failedAt.get(2);
    assertThat(lastGap).as("backoff grows").isGreaterThan(firstGap);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(relay.state().retryingKeys()).isZero());
  }

  @Test
  void aPoisonMessageParksOnlyItsKeyUntilTheOperatorActs() throws Exception {
    Relay relay = relay("poison");
    OutboxMessage before = Workload.message("poisoned");
    OutboxMessage poison =
        Workload.message("poisoned").toBuilder().payload(new byte[oversizedPayloadBytes()]).build();
    OutboxMessage after = Workload.message("poisoned");
    commit(List.of(before, poison, after));
    List<OutboxMessage> others = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      others.add(Workload.message("healthy-" + i));
    }
    commit(others);
    await().atMost(Duration.ofSeconds(30)).until(() -> parkedKeys(dataSource).contains("poisoned"));
    await().atMost(Duration.ofSeconds(30)).until(() -> received().size() >= 11);
    assertThat(received()).extracting(ReceivedMessage::id).doesNotContain(poison.id(), after.id());
    // A relay that tracks parked keys (CDC) counts it; the polling relay leaves them to the table.
    await().atMost(Duration.ofSeconds(10)).until(() -> relay.state().parkedKeys().orElse(1) == 1);
    discardParked(dataSource, "poisoned");
    await().atMost(Duration.ofSeconds(30)).until(() -> received().size() >= 12);
    assertThat(received().stream().filter(r -> r.key().equals("poisoned")).map(ReceivedMessage::id))
        .containsExactly(before.id(), after.id());
    assertThat(parkedKeys(dataSource)).isEmpty();
    await().atMost(Duration.ofSeconds(10)).until(() -> relay.state().parkedKeys().orElse(0) == 0);
    assertThat(discardedMessages(dataSource))
        .as("the discard is recorded")
        .containsExactly(poison.id());
  }

  @Test
  void rideOutABrokerOutageWithoutBusyLoopingOrLoss() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    relay("outage", new FaultyPublisher(newPublisher(topics), m -> null, calls));
    Workload w = new Workload();
    stopBroker();
    try {
      w.run(dataSource, this::save, 4, 20, 3, 10, 0);
      int before = calls.get();
      await().pollDelay(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(6)).until(() -> true);
      System.out.println(
          "[broker outage] publish calls in 5 s of outage: " + (calls.get() - before));
      assertThat(calls.get() - before).as("publish calls during 5 s of outage").isLessThan(20);
    } finally {
      startBroker();
    }
    DeliveryCheck check = awaitDelivered(w.committedByKey(), w.rolledBack(), w.committedCount());
    System.out.println("[broker outage] " + check);
    assertThat(check.holds()).isTrue();
  }

  /** Waits until every committed message arrived, then checks the history. */
  protected DeliveryCheck awaitDelivered(
      Map<String, List<UUID>> committedByKey, java.util.Set<UUID> rolledBack, int committed) {
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> DeliveryCheck.of(committedByKey, rolledBack, received()).lost().isEmpty());
    return DeliveryCheck.of(committedByKey, rolledBack, received());
  }
}
