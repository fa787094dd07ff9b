package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.RelayState.Phase;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.ReceivedMessage;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The embedded polling relay follows the context: it takes the key buckets when the context starts,
 * relays a committed row, and on close gives back its leases and heartbeat.
 */
class PollingRelayLifecycleIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  @Test
  void startsWithTheContextAndReleasesItsLeasesWhenTheContextCloses() {
    String db = DB.server().createDatabase();
    String topic = "lifecycle-" + UUID.randomUUID();
    KAFKA.server().createTopic(topic, 1);
    OutboxRelayLifecycle[] lifecycle = new OutboxRelayLifecycle[1];
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                JdbcTemplateAutoConfiguration.class,
                TransactionAutoConfiguration.class,
                OutboxAutoConfiguration.class,
                OutboxRelayAutoConfiguration.class))
        .withPropertyValues(
            "spring.datasource.url=" + DB.server().jdbcUrl(db),
            "spring.datasource.username=" + DB.server().user(),
            "spring.kafka.bootstrap-servers=" + KAFKA.server().bootstrapServers(),
            "outbox.schema.create=true",
            "outbox.relay.enabled=true",
            "outbox.relay.name=lifecycle",
            "outbox.publisher.type=kafka",
            "outbox.publisher.settings.topic-template=" + topic)
        .run(
            c -> {
              OutboxRelayLifecycle relay = c.getBean(OutboxRelayLifecycle.class);
              lifecycle[0] = relay;
              assertThat(relay.isRunning()).isTrue();
              await()
                  .atMost(Duration.ofSeconds(20))
                  .until(
                      () -> relay.state().orElseThrow().ownedBuckets().orElse(0),
                      b -> b == OutboxTable.BUCKETS);
              assertThat(relay.state().orElseThrow().phase()).isEqualTo(Phase.ACTIVE);
              String key = "k-" + UUID.randomUUID();
              new TransactionTemplate(c.getBean(PlatformTransactionManager.class))
                  .executeWithoutResult(
                      s -> c.getBean(SpringOutbox.class).save(SpringOutboxIT.message(key)));
              try (KafkaTopicReader reader =
                  new KafkaTopicReader(KAFKA.server().bootstrapServers())) {
                await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> reader.readAll(topic), l -> !l.isEmpty());
                assertThat(reader.readAll(topic))
                    .extracting(ReceivedMessage::key)
                    .containsExactly(key);
              }
              assertThat(held(c.getBean(JdbcTemplate.class))).isEqualTo(256);
            });
    assertThat(lifecycle[0].state()).as("not started after the context stopped it").isEmpty();
    // A pool apart from the closed context's, to look at the tables afterwards.
    try (var ds = DB.server().dataSource(db, 1)) {
      JdbcTemplate after = new JdbcTemplate(ds);
      assertThat(held(after)).isZero();
      assertThat(after.queryForObject("SELECT COUNT(*) FROM outbox_relay", Long.class)).isZero();
    }
  }

  private static long held(JdbcTemplate jdbc) {
    return jdbc.queryForObject(
        "SELECT COUNT(*) FROM outbox_lease WHERE owner IS NOT NULL", Long.class);
  }
}
