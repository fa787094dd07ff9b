package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * SpringKafkaDedup in a plain {@code @KafkaListener} on real PostgreSQL and Kafka: a handler that
 * throws rolls back its effect and its dedup record, the container redelivers, the effect happens
 * once; a later duplicate is skipped.
 */
class SpringDedupIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  static final String TOPIC = "dedup-" + UUID.randomUUID();
  static final AtomicInteger ATTEMPTS = new AtomicInteger();
  static final List<String> EVENTS = new CopyOnWriteArrayList<>();

  /** Fails the first delivery of key "flaky" after writing its effect. */
  static class Listener {
    final SpringKafkaDedup dedup;
    final JdbcTemplate jdbc;

    Listener(SpringKafkaDedup dedup, JdbcTemplate jdbc) {
      this.dedup = dedup;
      this.jdbc = jdbc;
    }

    @KafkaListener(topics = "${test.topic}", groupId = "billing")
    void on(ConsumerRecord<String, String> record) {
      dedup.handle(
          record,
          () -> {
            jdbc.update("INSERT INTO effects (k) VALUES (?)", record.key());
            if (record.key().equals("flaky") && ATTEMPTS.incrementAndGet() == 1) {
              throw new IllegalStateException("transient failure after the effect");
            }
          });
    }
  }

  @Test
  void aFailedHandlerRollsBackAndTheRedeliveryAppliesTheEffectOnce() {
    String db = DB.server().createDatabase();
    KAFKA.server().createTopic(TOPIC, 1);
    DedupListener events =
        new DedupListener() {
          @Override
          public void onOutcome(String group, MessageIdentity m, Outcome outcome) {
            EVENTS.add(m.id() + " " + outcome);
          }

          @Override
          public void onFailure(String group, MessageIdentity m, Exception failure) {
            EVENTS.add(m.id() + " FAILED " + failure.getMessage());
          }
        };
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class,
                JdbcTemplateAutoConfiguration.class,
                TransactionAutoConfiguration.class,
                KafkaAutoConfiguration.class,
                OutboxAutoConfiguration.class))
        .withBean(DedupListener.class, () -> events)
        .withBean(Listener.class)
        .withPropertyValues(
            "spring.datasource.url=" + DB.server().jdbcUrl(db),
            "spring.datasource.username=" + DB.server().user(),
            "spring.kafka.bootstrap-servers=" + KAFKA.server().bootstrapServers(),
            "spring.kafka.consumer.auto-offset-reset=earliest",
            "spring.kafka.consumer.group-id=billing",
            "test.topic=" + TOPIC,
            "outbox.schema.create=true")
        .run(
            c -> {
              assertThat(c).hasNotFailed();
              JdbcTemplate jdbc = c.getBean(JdbcTemplate.class);
              jdbc.execute("CREATE TABLE effects (k VARCHAR(64) NOT NULL)");
              String flaky = UUID.randomUUID().toString();
              String steady = UUID.randomUUID().toString();
              send(flaky, "flaky");
              send(steady, "steady");
              send(flaky, "flaky"); // a raw duplicate, as a producer retry would write it

              await()
                  .atMost(Duration.ofSeconds(60))
                  .until(() -> EVENTS.stream().filter(e -> !e.contains("FAILED")).count() == 3);
              assertThat(EVENTS)
                  .containsExactly(
                      flaky + " FAILED transient failure after the effect",
                      flaky + " PROCESSED",
                      steady + " PROCESSED",
                      flaky + " DUPLICATE");
              assertThat(effects(jdbc, "flaky")).isOne();
              assertThat(effects(jdbc, "steady")).isOne();
            });
  }

  private static long effects(JdbcTemplate jdbc, String key) {
    return jdbc.queryForObject("SELECT COUNT(*) FROM effects WHERE k = ?", Long.class, key);
  }

  private static void send(String id, String key) {
    try (KafkaProducer<String, String> p =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", KAFKA.server().bootstrapServers()),
            new StringSerializer(),
            new StringSerializer())) {
      ProducerRecord<String, String> r = new ProducerRecord<>(TOPIC, key, "{}");
      r.headers().add("id", id.getBytes(StandardCharsets.UTF_8));
      p.send(r);
    }
  }
}
