package dev.outboxrelay.it.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.it.KafkaDbFixture;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.DatabaseServer;
import dev.outboxrelay.testing.ReceivedMessage;
import dev.outboxrelay.testing.internal.JavaProcess;
import dev.outboxrelay.testing.internal.Ports;
import dev.outboxrelay.testing.internal.Processes;
import dev.outboxrelay.testing.internal.ServerDirs;
import java.nio.file.Path;
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
    Path dir = ServerDirs.create("kafka-connect");
    Process worker =
        Processes.start(
            JavaProcess.command(
                JavaProcess.recordedClasspath("kafka-connect"),
                List.of("-Xmx384m", "-XX:+UseSerialGC"),
                "org.apache.kafka.connect.cli.ConnectStandalone",
                List.of(
                    write(dir, "worker.properties", worker(dir)),
                    write(dir, "connector.properties", connector(name)))),
            dir.resolve("connect.log"));
    closeables.add(() -> Processes.stop(worker, Duration.ofSeconds(20)));
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              assertThat(worker.isAlive())
                  .as("Connect worker, log: %s", Processes.tail(dir.resolve("connect.log")))
                  .isTrue();
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

  private List<String> worker(Path dir) {
    return List.of(
        "bootstrap.servers=" + KAFKA.server().bootstrapServers(),
        "listeners=http://127.0.0.1:" + Ports.free(),
        "key.converter=org.apache.kafka.connect.storage.StringConverter",
        "value.converter=org.apache.kafka.connect.converters.ByteArrayConverter",
        "offset.storage.file.filename=" + dir.resolve("connect.offsets"),
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

  private static String write(Path dir, String file, List<String> lines) {
    JavaProcess.writeLines(dir.resolve(file), lines);
    return dir.resolve(file).toString();
  }
}
