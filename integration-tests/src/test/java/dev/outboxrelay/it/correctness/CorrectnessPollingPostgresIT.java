package dev.outboxrelay.it.correctness;

import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Polling relays as processes on PostgreSQL with Kafka, under faults (issue 8: 1, 3). */
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
      run.relay(run.polling("p1"));
      run.relay(run.polling("p2"));
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
      List<ChildJvm> relays =
          new java.util.ArrayList<>(
              List.of(run.relay(run.polling("p1")), run.relay(run.polling("p2"))));
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      for (int kill = 0; kill < 3; kill++) {
        run.awaitProgress(0.2 + 0.2 * kill);
        ChildJvm victim = relays.get(kill % 2);
        victim.kill9();
        run.fault("kill -9 p" + (kill % 2 + 1));
        relays.set(kill % 2, run.relay(run.polling("p" + (kill % 2 + 1))));
      }
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }
}
