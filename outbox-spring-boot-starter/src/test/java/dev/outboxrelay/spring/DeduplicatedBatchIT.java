package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.DefaultErrorHandler;

/**
 * {@link Deduplicated} on batch {@code @KafkaListener}s ({@link BatchListeners}) on real PostgreSQL
 * and Kafka. Each topic's records are on the broker before the listeners start, so the first poll
 * brings them as one batch. Spring Kafka's {@code DefaultErrorHandler} reports which record it was
 * told failed.
 */
class DeduplicatedBatchIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  static final String RUN = UUID.randomUUID().toString();
  static final String DUPES = "batch-dupes-" + RUN;
  static final String ITEM = "batch-item-" + RUN;
  static final String BISECT = "batch-bisect-" + RUN;
  static final String JOINED = "batch-joined-" + RUN;

  /** "key OUTCOME" or "key FAILED cause" per DedupListener call. */
  static final List<String> EVENTS = new CopyOnWriteArrayList<>();

  /** Keys of the records the error handler was told failed. */
  static final List<String> FAILED_DELIVERIES = new CopyOnWriteArrayList<>();

  static ConfigurableApplicationContext app;
  static JdbcTemplate jdbc;
  static BatchListeners listeners;

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({
    DataSourceAutoConfiguration.class,
    DataSourceTransactionManagerAutoConfiguration.class,
    JdbcTemplateAutoConfiguration.class,
    TransactionAutoConfiguration.class,
    KafkaAutoConfiguration.class,
    OutboxAutoConfiguration.class
  })
  static class App {
    @Bean
    BatchListeners batchListeners(JdbcTemplate jdbc) {
      return new BatchListeners(jdbc);
    }

    @Bean
    DedupListener events() {
      return new DedupListener() {
        @Override
        public void onOutcome(String group, MessageIdentity m, Outcome outcome) {
          EVENTS.add(key(m) + " " + outcome);
        }

        @Override
        public void onFailure(String group, MessageIdentity m, Exception failure) {
          EVENTS.add(key(m) + " FAILED " + failure.getMessage());
        }
      };
    }

    @Bean
    DefaultErrorHandler errorHandler() {
      DefaultErrorHandler handler = new DefaultErrorHandler();
      handler.setRetryListeners(
          (record, e, attempt) -> FAILED_DELIVERIES.add((String) record.key()));
      return handler;
    }
  }

  @BeforeAll
  static void startWithRecordsWaiting() throws Exception {
    String db = DB.server().createDatabase();
    try (Connection c = DB.server().connect(db)) {
      c.createStatement().execute("CREATE TABLE effects (k VARCHAR(64) NOT NULL)");
    }
    for (String topic : List.of(DUPES, ITEM, BISECT, JOINED)) {
      KAFKA.server().createTopic(topic, 1);
    }
    send(DUPES, "dup-a", "dup-b", "dup-a");
    send(ITEM, "item-0", "item-1", "item-0", "item-2", "item-3");
    send(BISECT, "bis-0", "bis-1", "bis-bad", "bis-3");
    send(JOINED, "tx-0", "tx-1", "tx-2");
    app =
        new SpringApplicationBuilder(App.class)
            .web(WebApplicationType.NONE)
            .run(
                "--spring.datasource.url=" + DB.server().jdbcUrl(db),
                "--spring.datasource.username=" + DB.server().user(),
                "--spring.datasource.password=" + DB.server().password(),
                "--spring.kafka.bootstrap-servers=" + KAFKA.server().bootstrapServers(),
                "--spring.kafka.consumer.auto-offset-reset=earliest",
                "--spring.kafka.listener.ack-mode=batch",
                "--test.dupes=" + DUPES,
                "--test.item=" + ITEM,
                "--test.bisect=" + BISECT,
                "--test.joined=" + JOINED,
                "--outbox.schema.create=true");
    jdbc = app.getBean(JdbcTemplate.class);
    listeners = app.getBean(BatchListeners.class);
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void anIdTwiceInOneBatchAndARedeliveredBatchHaveOneEffect() {
    awaitEvents("dup-", 3);
    assertThat(events("dup-"))
        .containsExactly("dup-a PROCESSED", "dup-b PROCESSED", "dup-a DUPLICATE");
    assertThat(listeners.calls("dupes")).containsExactly(List.of("dup-a", "dup-b"));

    app.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("replay").start();
    awaitEvents("dup-", 6);
    assertThat(events("dup-"))
        .containsExactly(
            "dup-a PROCESSED",
            "dup-b PROCESSED",
            "dup-a DUPLICATE",
            "dup-a DUPLICATE",
            "dup-b DUPLICATE",
            "dup-a DUPLICATE");
    assertThat(listeners.calls("replay")).isEmpty();
    assertThat(effects("dup-a")).isOne();
    assertThat(effects("dup-b")).isOne();
  }

  @Test
  void aNamedFailedRecordCommitsTheRecordsBeforeItAndIsRetriedFromTheContainersIndex() {
    awaitEvents("item-", 6);
    assertThat(events("item-"))
        .containsExactly(
            "item-0 PROCESSED",
            "item-1 PROCESSED",
            "item-0 DUPLICATE",
            "item-2 FAILED item-2 transient",
            "item-2 PROCESSED",
            "item-3 PROCESSED");
    // item-2 was index 2 of the list the method got, index 3 of the container's.
    assertThat(FAILED_DELIVERIES).filteredOn(k -> k.startsWith("item-")).containsExactly("item-2");
    assertThat(listeners.calls("item"))
        .containsExactly(
            List.of("item-0", "item-1", "item-2", "item-3"),
            List.of("item-0", "item-1"),
            List.of("item-2", "item-3"));
    for (String k : List.of("item-0", "item-1", "item-2", "item-3")) {
      assertThat(effects(k)).as(k).isOne();
    }
  }

  @Test
  void anUnnamedFailureIsFoundByBisectionAndEveryRecordHasOneEffect() {
    awaitEvents("bis-", 5);
    assertThat(events("bis-"))
        .containsExactly(
            "bis-0 PROCESSED",
            "bis-1 PROCESSED",
            "bis-bad FAILED bad record",
            "bis-bad PROCESSED",
            "bis-3 PROCESSED");
    assertThat(FAILED_DELIVERIES).filteredOn(k -> k.startsWith("bis-")).containsExactly("bis-bad");
    assertThat(listeners.calls("bisect"))
        .containsExactly(
            List.of("bis-0", "bis-1", "bis-bad", "bis-3"),
            List.of("bis-0", "bis-1"),
            List.of("bis-bad", "bis-3"),
            List.of("bis-bad"),
            List.of("bis-bad", "bis-3"));
    for (String k : List.of("bis-0", "bis-1", "bis-bad", "bis-3")) {
      assertThat(effects(k)).as(k).isOne();
    }
  }

  @Test
  void inATransactionAlreadyRunningTheBatchIsNotSplitAndRunsAgainFromItsStart() {
    awaitEvents("tx-", 4);
    // Not split, so which record failed is unknown: the failure is where redelivery starts.
    assertThat(events("tx-"))
        .containsExactly(
            "tx-0 FAILED tx-1 transient", "tx-0 PROCESSED", "tx-1 PROCESSED", "tx-2 PROCESSED");
    assertThat(FAILED_DELIVERIES).filteredOn(k -> k.startsWith("tx-")).containsExactly("tx-0");
    assertThat(listeners.calls("joined"))
        .containsExactly(List.of("tx-0", "tx-1", "tx-2"), List.of("tx-0", "tx-1", "tx-2"));
    for (String k : List.of("tx-0", "tx-1", "tx-2")) {
      assertThat(effects(k)).as(k).isOne();
    }
  }

  private static void awaitEvents(String prefix, int count) {
    await().atMost(Duration.ofSeconds(60)).until(() -> events(prefix).size() >= count);
  }

  private static List<String> events(String prefix) {
    return EVENTS.stream().filter(e -> e.startsWith(prefix)).toList();
  }

  private static long effects(String key) {
    return jdbc.queryForObject("SELECT COUNT(*) FROM effects WHERE k = ?", Long.class, key);
  }

  /** The id is the key within this run: the same key twice is the same message twice. */
  private static String key(MessageIdentity m) {
    return m.id().substring(RUN.length() + 1);
  }

  private static void send(String topic, String... keys) {
    try (KafkaProducer<String, String> p =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", KAFKA.server().bootstrapServers()),
            new StringSerializer(),
            new StringSerializer())) {
      for (String key : keys) {
        ProducerRecord<String, String> r = new ProducerRecord<>(topic, key, "{}");
        r.headers().add("id", (RUN + "/" + key).getBytes(StandardCharsets.UTF_8));
        p.send(r);
      }
    }
  }
}
