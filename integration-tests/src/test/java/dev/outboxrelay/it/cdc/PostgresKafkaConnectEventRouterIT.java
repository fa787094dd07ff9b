package dev.outboxrelay.it.cdc;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Debezium's PostgreSQL connector (pgoutput, its own slot and publication) with the router. */
class PostgresKafkaConnectEventRouterIT extends KafkaConnectEventRouterContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected List<String> source(String name) {
    return List.of(
        "connector.class=io.debezium.connector.postgresql.PostgresConnector",
        "database.dbname=" + dataSource.getPoolName(),
        "plugin.name=pgoutput",
        "slot.name=" + name,
        "publication.name=" + name,
        "publication.autocreate.mode=filtered",
        "table.include.list=public.outbox");
  }
}
