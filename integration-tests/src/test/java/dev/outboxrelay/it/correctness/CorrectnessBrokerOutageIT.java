package dev.outboxrelay.it.correctness;

import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.RocketMqServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The broker killed with SIGKILL and restarted after longer than the publisher's delivery timeout
 * (issue 8: 5), on private brokers so that no other test sees the outage.
 */
class CorrectnessBrokerOutageIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  private static final Duration OUTAGE = Duration.ofSeconds(8);

  @Test
  void kafkaKilledLongerThanTheDeliveryTimeout() throws Exception {
    KafkaServer kafka = KafkaServer.start();
    try (CorrectnessRun run =
        CorrectnessRun.kafka(
            "5 Kafka kill -9 for 8s > delivery timeout 3s, polling x2, PostgreSQL",
            DB.server(),
            kafka)) {
      run.relays(
          run.polling("p1")
              .publisher("request.timeout.ms", "1000")
              .publisher("delivery.timeout.ms", "3000"),
          run.polling("p2")
              .publisher("request.timeout.ms", "1000")
              .publisher("delivery.timeout.ms", "3000"));
      run.consumers(2);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      run.awaitProgress(0.3);
      kafka.kill();
      CorrectnessRun.pause(OUTAGE);
      kafka.restart();
      run.fault("Kafka kill -9, down " + OUTAGE.toSeconds() + "s");
      run.recovered();
      run.awaitDrained();
      run.check();
    } finally {
      kafka.stop();
    }
  }

  @Test
  void rocketMqKilledLongerThanTheSendTimeout() throws Exception {
    RocketMqServer rocketMq = RocketMqServer.builder().syncFlush(true).start();
    try (CorrectnessRun run =
        CorrectnessRun.rocketMq(
            "5 RocketMQ kill -9 for 8s > send timeout 3s, polling x2, PostgreSQL",
            DB.server(),
            rocketMq)) {
      run.relays(
          run.polling("p1").publisher("sendMsgTimeout", "3000"),
          run.polling("p2").publisher("sendMsgTimeout", "3000"));
      run.consumers(1);
      run.write(Writers.Options.of(CorrectnessRun.MESSAGES));
      run.awaitProgress(0.3);
      rocketMq.kill();
      CorrectnessRun.pause(OUTAGE);
      rocketMq.restart();
      run.fault("RocketMQ name server + broker kill -9, down " + OUTAGE.toSeconds() + "s");
      run.recovered();
      run.awaitDrained();
      run.check();
    } finally {
      rocketMq.stop();
    }
  }
}
