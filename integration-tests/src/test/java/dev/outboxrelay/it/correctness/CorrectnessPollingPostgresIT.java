package dev.outboxrelay.it.correctness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Polling relays as processes on PostgreSQL with Kafka, under faults (issue 8: 1, 2 strict, 3, 4,
 * 6, 7, 9).
 */
class CorrectnessPollingPostgresIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  @Test
  void lateCommitsAndRollbacks() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "1 late commits and rollbacks, polling x2, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      run.relays(run.polling("p1"), run.polling("p2"));
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      run.awaitWritersDone();
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }

  @Test
  void relayProcessesKilledMidBatch() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "3 kill -9 relay processes, polling x2, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      List<ChildJvm> relays = new ArrayList<>(run.relays(run.polling("p1"), run.polling("p2")));
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      int kills = 3;
      for (int kill = 0; kill < kills; kill++) {
        run.awaitProgress(0.2 + 0.2 * kill);
        ChildJvm victim = relays.get(kill % 2);
        victim.kill9();
        run.fault("kill -9 p" + (kill % 2 + 1));
        relays.set(kill % 2, run.relay(run.polling("p" + (kill % 2 + 1))));
      }
      run.recovered();
      run.awaitDrained();
      int perKill = run.polling("p1").duplicatesPerKill();
      assertThat(run.check().rawDuplicates())
          .as(
              "raw duplicates, at most kills × batch-size × in-flight-batches = %d × %d",
              kills, perKill)
          .isLessThanOrEqualTo(kills * perKill);
    }
  }

  @Test
  void aRelayPausedForTwiceItsLeaseIsFenced() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "4 SIGSTOP one of 3 polling relays for 2x lease, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      Duration lease = Duration.ofSeconds(2);
      ChildJvm paused =
          run.relays(
                  run.polling("p1").lease(lease),
                  run.polling("p2").lease(lease),
                  run.polling("p3").lease(lease))
              .get(0);
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      for (int i = 0; i < 2; i++) {
        run.awaitProgress(0.2 + 0.4 * i);
        paused.pause();
        CorrectnessRun.pause(lease.multipliedBy(2));
        paused.resume();
        run.fault("SIGSTOP p1 " + lease.multipliedBy(2).toSeconds() + "s");
      }
      run.recovered();
      run.awaitDrained();
      long fenced = paused.output().lines().filter(l -> l.contains("refused by the fence")).count();
      run.fault("p1 logged " + fenced + " fenced mark statements");
      run.check();
    }
  }

  @Test
  void aPoisonMessageParksOnlyItsKeyAndUnparkingResumesItInOrder() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "6 poison message parks its key, unpark resumes in order, polling x2, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      List<ChildJvm> relays =
          run.relays(
              run.polling("p1").publisher("max.request.size", "65536"),
              run.polling("p2").publisher("max.request.size", "65536"));
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      run.writeKey("poison", 10, 10, 10);
      UUID poison = run.writeKey("poison", 100_000).get(0);
      run.writeKey("poison", 10, 10, 10);
      run.awaitWritersDone();
      OutboxAdmin admin = OutboxAdmin.of(run.ds, OutboxTable.defaults());
      await("other keys drained, poison parked")
          .atMost(Duration.ofSeconds(120))
          .until(
              () ->
                  run.count("SELECT COUNT(*) FROM outbox WHERE aggregateid <> 'poison'") == 0
                      && admin.parked().stream().anyMatch(p -> p.messageId().equals(poison)));
      assertThat(run.count("SELECT COUNT(*) FROM outbox"))
          .as("poison and the 3 after it")
          .isEqualTo(4);
      run.fault("poison parked, other keys drained");
      // The operator raises the limit and unparks: the key resumes with the poison message.
      for (ChildJvm r : relays) {
        r.stop();
      }
      run.relays(
          run.polling("p1").publisher("max.request.size", "1048576"),
          run.polling("p2").publisher("max.request.size", "1048576"));
      assertThat(admin.unpark("poison")).isTrue();
      run.fault("limit raised, unparked");
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }

  @Test
  void consumersKilledBetweenDatabaseCommitAndOffsetCommitAndRebalanced() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "7 consumers halted after DB commit x2, kill -9 x1, rebalances, polling x2, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      run.relays(run.polling("p1"), run.polling("p2"));
      // Two consumers halt right after a database commit, before its offset commit; a third is
      // killed with SIGKILL while it works through a backlog; every replacement joins (rebalance).
      // A replacement shares the partitions with the steady consumer and must still reach its
      // halt count while messages flow: the writes are paced to last about 40 s (at 250 msg/s the
      // quick profile's writes were over, and drained by the steady consumer, before the second
      // replacement was assigned partitions; it waited 2 min for a message).
      ChildJvm halting = run.consumerProcess(60);
      ChildJvm steady = run.consumerProcess();
      List<ChildJvm> all = new ArrayList<>(List.of(halting, steady));
      run.write(
          Writers.Options.of(CorrectnessRun.MESSAGES)
              .rate(Math.max(50, CorrectnessRun.MESSAGES / 40)));
      for (int haltAfter : new int[] {25, 0}) {
        ChildJvm dying = halting;
        await("consumer halted").atMost(Duration.ofSeconds(120)).until(() -> !dying.isAlive());
        run.fault("consumer halted after a DB commit");
        halting = run.consumerProcess(haltAfter);
        all.add(halting);
      }
      run.awaitProgress(0.7);
      steady.pause();
      CorrectnessRun.pause(Duration.ofSeconds(2));
      steady.resume();
      CorrectnessRun.pause(Duration.ofMillis(150));
      steady.kill9();
      run.fault("kill -9 busy consumer");
      all.add(run.consumerProcess());
      run.awaitProgress(0.8);
      ChildJvm extra = run.consumerProcess();
      all.add(extra);
      run.awaitProgress(0.9);
      extra.stop();
      run.fault("consumer joined and left");
      run.recovered();
      run.awaitDrained();
      long suppressed =
          all.stream()
              .mapToLong(
                  c -> c.stdout().lines().filter(l -> l.startsWith("duplicate suppressed")).count())
              .sum();
      run.fault(suppressed + " redeliveries suppressed by dedup");
      long failed =
          all.stream()
              .mapToLong(
                  c -> c.stdout().lines().filter(l -> l.startsWith("handler failure")).count())
              .sum();
      run.fault(failed + " consumer handler failures, batch prefix committed");
      run.check();
      assertThat(suppressed).as("redeliveries after the kills, suppressed by dedup").isPositive();
    }
  }

  @Test
  void theDatabaseRestartedMidRun() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "9 database restarted mid-run, polling x2, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      run.relays(run.polling("p1"), run.polling("p2"));
      run.consumers(2);
      Writers writers = run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      run.awaitProgress(0.4);
      DB.server().stop();
      CorrectnessRun.pause(Duration.ofSeconds(3));
      DB.server().start();
      run.fault("PostgreSQL stopped 3s (" + writers.failures() + " writer failures by then)");
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }

  /**
   * The usual transaction: the business row first, then the outbox row. A transaction whose id is
   * older but whose outbox row is newer than another's must still not let that other row out first.
   */
  @Test
  void sameKeyCommitInversionUnderStrictOrder() throws Exception {
    strictOrderInversion(
        "2 same-key commit inversion, polling strict order x2, PostgreSQL, Kafka",
        Writers.Options.of(CorrectnessRun.MESSAGES).sharedKeys(4, true));
  }

  private void strictOrderInversion(String scenario, Writers.Options options) throws Exception {
    try (CorrectnessRun run = CorrectnessRun.kafka(scenario, DB.server(), KAFKA.server())) {
      run.relays(
          run.polling("p1").set("strict-order", "true"),
          run.polling("p2").set("strict-order", "true"));
      run.consumers(2);
      run.write(options);
      run.awaitWritersDone();
      run.fault(
          "6 writers (3 without key order) on 4 shared keys, judged by insertion order (seq)");
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }
}
