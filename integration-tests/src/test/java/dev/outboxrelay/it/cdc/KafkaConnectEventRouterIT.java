package dev.outboxrelay.it.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.it.KafkaDbFixture;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.KafkaConnectWorker;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.ReceivedMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scale-out path: the same table, unchanged, served by a Kafka Connect worker (a separate JVM)
 * running Debezium's PostgreSQL connector with the Outbox Event Router. A consumer gets the same
 * topic, key, id header and payload as from our relays.
 */
class KafkaConnectEventRouterIT extends KafkaDbFixture {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Test
  void connectWithTheEventRouterDeliversTheSameMessages() throws Exception {
    String name = "connect_" + dataSource.getPoolName();
    KafkaConnectWorker worker = KafkaConnectWorker.start(worker(), connector(name));
    closeables.add(worker);
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              assertThat(worker.isAlive()).as("Connect worker, log: %s", worker.logTail()).isTrue();
              return count(
                      "SELECT COUNT(*) FROM pg_replication_slots WHERE slot_name = '"
                          + name
                          + "' AND active")
                  == 1;
            });
    List<OutboxMessage> sent = commit("connect-key", 3);
    await().atMost(Duration.ofSeconds(60)).until(() -> received().size() >= 3);
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
    assertThat(received()).extracting(ReceivedMessage::id).containsExactlyElementsOf(ids(sent));
  }

  private List<String> worker() {
    return List.of(
        "bootstrap.servers=" + KAFKA.server().bootstrapServers(),
        "key.converter=org.apache.kafka.connect.storage.StringConverter",
        "value.converter=org.apache.kafka.connect.converters.ByteArrayConverter",
        "offset.flush.interval.ms=1000");
  }

  private List<String> connector(String name) {
    DatabaseServer db = database();
    String prefix = topic.substring(0, topic.length() - "order".length());
    return List.of(
        "name=" + name,
        "connector.class=io.debezium.connector.postgresql.PostgresConnector",
        "tasks.max=1",
        "database.hostname=127.0.0.1",
        "database.port=" + db.port(),
        "database.user=" + db.user(),
        "database.password=" + db.password(),
        "database.dbname=" + dataSource.getPoolName(),
        "plugin.name=pgoutput",
        "slot.name=" + name,
        "publication.name=" + name,
        "publication.autocreate.mode=filtered",
        "topic.prefix=" + name,
        "table.include.list=public.outbox",
        "snapshot.mode=no_data",
        "transforms=outbox",
        "transforms.outbox.type=io.debezium.transforms.outbox.EventRouter",
        "transforms.outbox.route.topic.replacement=" + prefix + "${routedByValue}",
        "transforms.outbox.table.fields.additional.placement="
            + "type:header:type,aggregatetype:header:aggregatetype");
  }
}
