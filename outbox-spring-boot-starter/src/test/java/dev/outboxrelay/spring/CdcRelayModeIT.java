package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.RelayState.Phase;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.ReceivedMessage;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * {@code outbox.relay.mode=cdc}: the embedded Debezium relay reads the WAL of the application's
 * PostgreSQL (source taken from spring.datasource.*) and publishes to Kafka; it stops with the
 * context.
 */
class CdcRelayModeIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  @Test
  void committedRowsReachKafkaThroughTheWalAndTheRelayStopsWithTheContext() {
    String db = DB.server().createDatabase();
    String topic = "cdc-" + UUID.randomUUID();
    KAFKA.server().createTopic(topic, 1);
    OutboxRelayLifecycle[] relay = new OutboxRelayLifecycle[1];
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                TransactionAutoConfiguration.class,
                OutboxAutoConfiguration.class,
                OutboxRelayAutoConfiguration.class))
        .withPropertyValues(
            "spring.datasource.url=" + DB.server().jdbcUrl(db),
            "spring.datasource.username=" + DB.server().user(),
            "spring.datasource.password=" + DB.server().password(),
            "spring.kafka.bootstrap-servers=" + KAFKA.server().bootstrapServers(),
            "outbox.schema.create=true",
            "outbox.relay.enabled=true",
            "outbox.relay.mode=cdc",
            "outbox.relay.name=springcdc",
            "outbox.publisher.type=kafka",
            "outbox.publisher.settings.topic-template=" + topic)
        .run(
            c -> {
              assertThat(c).hasNotFailed();
              relay[0] = c.getBean(OutboxRelayLifecycle.class);
              assertThat(relay[0].isAlive()).isTrue();
              assertThat(c.getBean(OutboxHealthIndicator.class).health().getDetails())
                  .containsEntry("mode", "cdc")
                  .containsEntry("phase", "ACTIVE");
              assertThat(relay[0].state().orElseThrow().phase()).isEqualTo(Phase.ACTIVE);
              SpringOutbox outbox = c.getBean(SpringOutbox.class);
              TransactionTemplate tx =
                  new TransactionTemplate(c.getBean(PlatformTransactionManager.class));
              String key = "k-" + UUID.randomUUID();
              tx.executeWithoutResult(s -> outbox.save(SpringOutboxIT.message(key)));
              try (KafkaTopicReader reader =
                  new KafkaTopicReader(KAFKA.server().bootstrapServers())) {
                List<ReceivedMessage> received =
                    await()
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> reader.readAll(topic), l -> !l.isEmpty());
                assertThat(received).extracting(ReceivedMessage::key).containsExactly(key);
              }
            });
    assertThat(relay[0].isRunning()).isFalse();
    assertThat(relay[0].state()).isEmpty();
  }
}
