package dev.outboxrelay.dedup;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Kafka contract with {@code concurrency(3)}: the topic's four partitions on three lanes. */
class PostgresKafkaDedupConcurrentIT extends KafkaDedupContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  DatabaseServer server() {
    return DB.server();
  }

  @Override
  int concurrency() {
    return 3;
  }
}
