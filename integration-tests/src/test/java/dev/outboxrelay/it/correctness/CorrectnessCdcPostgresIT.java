package dev.outboxrelay.it.correctness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CDC relays as processes on PostgreSQL with Kafka (issue 8: 2 CDC, 3 CDC, 8). */
class CorrectnessCdcPostgresIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  /**
   * Writers start as soon as the relay process reports ready, as in a deployment: the relay's
   * start-up catch-up and the new slot's stream overlap (the case {@code CatchUp} fences).
   */
  @Test
  void sameKeyCommitInversion() throws Exception {
    commitInversion("2 same-key commit inversion from relay start, CDC, PostgreSQL, Kafka", false);
  }

  /** Writers start once a first message went through: the stream alone, no start-up catch-up. */
  @Test
  void sameKeyCommitInversionOnceStreaming() throws Exception {
    commitInversion("2 same-key commit inversion once streaming, CDC, PostgreSQL, Kafka", true);
  }

  private void commitInversion(String scenario, boolean warmUp) throws Exception {
    try (CorrectnessRun run = CorrectnessRun.kafka(scenario, DB.server(), KAFKA.server())) {
      run.relay(run.cdc("cdc1"));
      run.consumers(2);
      if (warmUp) {
        run.writeKey("warm-up", 10);
        await("first message through")
            .atMost(Duration.ofSeconds(60))
            .until(() -> run.count("SELECT COUNT(*) FROM effect") == 1);
      }
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES).sharedKeys(4, false));
      run.awaitWritersDone();
      run.fault("6 writers (3 without key order) on 4 shared keys, judged by commit order");
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }

  /**
   * Same-key transactions commit in inverse order while the relay is killed and restarted: the
   * restarted stream (from the stored position) and the rows pending in the table overlap, the case
   * the start-up fence ({@code CatchUp}) orders.
   */
  @Test
  void sameKeyCommitInversionAcrossAKillAndRestart() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "2 same-key commit inversion across kill -9 and restart, CDC, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      ChildJvm relay = run.relay(run.cdc("cdc1"));
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES).sharedKeys(4, false));
      run.awaitProgress(0.3);
      relay.kill9();
      run.fault("kill -9 cdc1 at 30 % written");
      run.awaitProgress(0.5);
      run.relay(run.cdc("cdc1"));
      run.fault(
          "cdc1 restarted at 50 % written; 6 writers (3 without key order) on 4 shared keys, judged by commit order");
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
            "3 kill -9 relay processes, CDC active + standby, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      // Same name: one streams, the other stands by on the source lock and takes over.
      List<ChildJvm> relays = new ArrayList<>(List.of(run.relay(run.cdc("cdc1"))));
      relays.add(RelayProcess.launch(run.cdc("cdc1"), run.dir));
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      for (int kill = 0; kill < 3; kill++) {
        run.awaitProgress(0.2 + 0.2 * kill);
        ChildJvm victim = relays.remove(0);
        victim.kill9();
        run.fault("kill -9 the older cdc1");
        relays.add(RelayProcess.launch(run.cdc("cdc1"), run.dir));
      }
      run.recovered();
      run.awaitDrained();
      relays.forEach(ChildJvm::close);
      run.check();
    }
  }

  @Test
  void aLostPositionStopsTheRelayLoudlyAndResetRecovers() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "8 CDC replication slot dropped: refuses to start, reset recovers, PostgreSQL, Kafka",
            DB.server(),
            KAFKA.server())) {
      RelaySpec spec = run.cdc("cdc1");
      ChildJvm relay = run.relay(spec);
      run.consumers(2);
      Writers writers = run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      writers.done().get();
      relay.stop();
      // The slot stays active for a moment after the walsender's client is gone.
      await("slot dropped")
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .until(
              () -> {
                try (var c = run.ds.getConnection();
                    var st = c.createStatement()) {
                  st.execute("SELECT pg_drop_replication_slot('" + spec.name() + "')");
                }
                return true;
              });
      run.writeKey("after-loss", 10, 10, 10);
      ChildJvm refused = RelayProcess.launch(spec, run.dir);
      assertThat(refused.awaitExit(Duration.ofSeconds(90))).as("exit code").isNotZero();
      assertThat(refused.output()).contains(spec.name()).containsIgnoringCase("cannot resume");
      run.fault("slot dropped, relay exited " + refused.awaitExit(Duration.ZERO));
      // The operator reconciles: reset the stored position; pending rows are published again.
      CdcRelay.builder()
          .name(spec.name())
          .source(run.db.jdbcUrl(run.database), run.db.user(), run.db.password())
          .dataSource(run.ds)
          .publisher(new dev.outboxrelay.testing.InMemoryPublisher())
          .build()
          .resetPosition();
      run.relay(spec);
      run.fault("position reset");
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }
}
