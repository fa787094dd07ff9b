package dev.outboxrelay.it.cdc;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Debezium's MariaDB connector on the ROW binlog with the router. The schema history goes to a
 * Kafka topic of its own, as a Connect deployment keeps it; the server id is the connector's own,
 * so it does not collide with the CDC relays' binlog clients on the same server.
 */
class MariaDbKafkaConnectEventRouterIT extends KafkaConnectEventRouterContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected List<String> source(String name) {
    String db = dataSource.getPoolName();
    return List.of(
        "connector.class=io.debezium.connector.mariadb.MariaDbConnector",
        "database.server.id=" + (7400 + Math.floorMod(name.hashCode(), 1 << 30)),
        "database.include.list=" + db,
        "table.include.list=" + db + ".outbox",
        "snapshot.locking.mode=none",
        "include.schema.changes=false",
        "schema.history.internal.kafka.bootstrap.servers=" + KAFKA.server().bootstrapServers(),
        "schema.history.internal.kafka.topic=" + name + "-history",
        "schema.history.internal.store.only.captured.tables.ddl=true");
  }
}
