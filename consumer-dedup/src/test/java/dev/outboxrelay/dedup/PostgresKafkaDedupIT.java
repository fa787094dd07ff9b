package dev.outboxrelay.dedup;

import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.DatabaseServer;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresKafkaDedupIT extends KafkaDedupContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  DatabaseServer server() {
    return DB.server();
  }
}
