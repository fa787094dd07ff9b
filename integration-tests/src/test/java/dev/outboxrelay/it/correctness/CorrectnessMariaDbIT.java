package dev.outboxrelay.it.correctness;

import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The same faults on MariaDB (issue 8: 3 polling and CDC, 9). */
class CorrectnessMariaDbIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  @Test
  void pollingRelaysKilledAndTheDatabaseRestarted() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "3+9 kill -9 relay processes x2, MariaDB restarted, polling x2, MariaDB, Kafka",
            DB.server(),
            KAFKA.server())) {
      List<ChildJvm> relays = new ArrayList<>(run.relays(run.polling("p1"), run.polling("p2")));
      run.consumers(2);
      Writers writers = run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      for (int kill = 0; kill < 2; kill++) {
        run.awaitProgress(0.2 + 0.2 * kill);
        relays.get(kill).kill9();
        run.fault("kill -9 p" + (kill + 1));
        relays.set(kill, run.relay(run.polling("p" + (kill + 1))));
      }
      run.awaitProgress(0.6);
      DB.server().stop();
      CorrectnessRun.pause(Duration.ofSeconds(3));
      DB.server().start();
      run.fault("MariaDB stopped 3s (" + writers.failures() + " writer failures by then)");
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }

  @Test
  void cdcRelayKilledMidRun() throws Exception {
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "3 kill -9 CDC relay process x3, binlog, MariaDB, Kafka",
            DB.server(),
            KAFKA.server())) {
      ChildJvm relay = run.relay(run.cdc("cdc1"));
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      for (int kill = 0; kill < 3; kill++) {
        run.awaitProgress(0.2 + 0.2 * kill);
        relay.kill9();
        run.fault("kill -9 cdc1");
        relay = run.relay(run.cdc("cdc1"));
      }
      run.recovered();
      run.awaitDrained();
      run.check();
    }
  }
}
