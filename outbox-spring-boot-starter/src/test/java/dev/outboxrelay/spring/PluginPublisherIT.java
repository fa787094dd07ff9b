package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.RecordingPublisherJar;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A third party's publisher jar, built by the test against outbox-core only and seen through the
 * application's class loader (not the starter's): {@code outbox.publisher.type=recording} makes the
 * embedded relay publish through it, per key in order, against a real PostgreSQL.
 */
class PluginPublisherIT {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @TempDir Path dir;

  @Test
  void thePublisherTypeNamesAFactoryOnTheApplicationsClassLoader() throws Exception {
    String db = DB.server().createDatabase();
    Path jar = RecordingPublisherJar.build(dir.resolve("plugin"));
    Path file = dir.resolve("recorded.txt");
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {jar.toUri().toURL()}, getClass().getClassLoader())) {
      ApplicationContextRunner runner =
          new ApplicationContextRunner()
              .withClassLoader(loader)
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
                  "spring.datasource.username=" + DB.server().user());
      runner
          .withPropertyValues(
              "outbox.schema.create=true",
              "outbox.relay.enabled=true",
              "outbox.relay.name=plugin-relay",
              "outbox.relay.poll-interval=100ms",
              "outbox.publisher.type=" + RecordingPublisherJar.TYPE,
              "outbox.publisher.settings." + RecordingPublisherJar.FILE_SETTING + "=" + file)
          .run(
              c -> {
                assertThat(c).hasNotFailed();
                assertThat(c.getBean(Publisher.class).getClass().getName())
                    .startsWith("com.example.recording.");
                List<OutboxMessage> sent = new ArrayList<>();
                for (int i = 0; i < 12; i++) {
                  OutboxMessage m = SpringOutboxIT.message("plugin-" + (i % 3));
                  sent.add(m);
                  new TransactionTemplate(c.getBean(PlatformTransactionManager.class))
                      .executeWithoutResult(s -> c.getBean(SpringOutbox.class).save(m));
                }
                for (int k = 0; k < 3; k++) {
                  String key = "plugin-" + k;
                  List<java.util.UUID> expected =
                      sent.stream()
                          .filter(m -> m.aggregateId().equals(key))
                          .map(OutboxMessage::id)
                          .toList();
                  await()
                      .atMost(Duration.ofSeconds(30))
                      .untilAsserted(
                          () ->
                              assertThat(RecordingPublisherJar.recorded(file, key))
                                  .as("recorded order of " + key)
                                  .containsExactlyElementsOf(expected));
                }
              });
      // The plugin's own request limit is checked too, found through the same class loader.
      runner
          .withPropertyValues(
              "outbox.publisher.type=" + RecordingPublisherJar.TYPE,
              "outbox.publisher.settings.max-bytes=65536",
              "outbox.writer.max-payload-bytes=40000")
          .run(
              c ->
                  assertThat(c.getStartupFailure())
                      .hasStackTraceContaining(
                          "outbox.writer.max-payload-bytes must be at most"
                              + " outbox.publisher.settings.max-bytes (65536) - 32768 = 32768"));
    }
  }
}
