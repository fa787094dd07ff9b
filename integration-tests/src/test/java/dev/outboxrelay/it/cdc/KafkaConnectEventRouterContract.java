package dev.outboxrelay.it.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.it.KafkaDbFixture;
import dev.outboxrelay.servers.KafkaConnectWorker;
import dev.outboxrelay.testing.ReceivedMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The scale-out path: the same table, unchanged, served by a Kafka Connect worker (a separate JVM)
 * running Debezium's connector for the database with the Outbox Event Router. A consumer gets the
 * same topic, key, id header and payload as from our relays. A subclass names the connector and its
 * database settings; the Event Router's mapping of the table is the same for every database.
 */
abstract class KafkaConnectEventRouterContract extends KafkaDbFixture {

  /** The connector's class and database settings ({@code key=value}), without the transform. */
  protected abstract List<String> source(String name);

  @Test
  void connectWithTheEventRouterDeliversTheSameMessages() throws Exception {
    String name = "connect_" + dataSource.getPoolName();
    KafkaConnectWorker worker = KafkaConnectWorker.start(worker(), connector(name));
    closeables.add(worker);
    awaitStreaming(worker);
    List<OutboxMessage> sent = commit("connect-key", 3);
    await().atMost(Duration.ofSeconds(60)).until(() -> receivedIds("connect-key").size() >= 3);
    Map<String, ReceivedMessage> byId =
        received().stream()
            .collect(Collectors.toMap(r -> r.headers().get("id"), Function.identity()));
    for (OutboxMessage m : sent) {
      ReceivedMessage r = byId.get(m.id().toString());
      assertThat(r).as("message %s on %s", m.id(), topic).isNotNull();
      assertThat(r.topic()).isEqualTo(topic);
      assertThat(r.key()).isEqualTo(m.aggregateId());
      assertThat(r.payload()).isEqualTo(m.payload());
      assertThat(r.headers())
          .containsEntry("type", m.type())
          .containsEntry("aggregatetype", m.aggregateType());
    }
    assertThat(receivedIds("connect-key")).containsExactlyElementsOf(ids(sent));
  }

  /**
   * Commits a warm-up message on its own key until one reaches the topic: the connector then
   * streams (a binlog connector in {@code no_data} mode starts at the position it finds, so a row
   * committed before that would never be read).
   */
  private void awaitStreaming(KafkaConnectWorker worker) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> {
              assertThat(worker.isAlive()).as("Connect worker, log: %s", worker.logTail()).isTrue();
              commit("warm-up", 1);
              return !receivedIds("warm-up").isEmpty();
            });
  }

  private List<String> worker() {
    return List.of(
        "bootstrap.servers=" + KAFKA.server().bootstrapServers(),
        "key.converter=org.apache.kafka.connect.storage.StringConverter",
        "value.converter=org.apache.kafka.connect.converters.ByteArrayConverter",
        "offset.flush.interval.ms=1000");
  }

  private List<String> connector(String name) {
    String prefix = topic.substring(0, topic.length() - "order".length());
    List<String> settings = new ArrayList<>();
    settings.add("name=" + name);
    settings.add("tasks.max=1");
    settings.add("database.hostname=127.0.0.1");
    settings.add("database.port=" + database().port());
    settings.add("database.user=" + database().user());
    settings.add("database.password=" + database().password());
    settings.add("topic.prefix=" + name);
    settings.add("snapshot.mode=no_data");
    settings.addAll(source(name));
    settings.add("transforms=outbox");
    settings.add("transforms.outbox.type=io.debezium.transforms.outbox.EventRouter");
    settings.add("transforms.outbox.route.topic.replacement=" + prefix + "${routedByValue}");
    settings.add(
        "transforms.outbox.table.fields.additional.placement="
            + "type:header:type,aggregatetype:header:aggregatetype");
    return settings;
  }
}
