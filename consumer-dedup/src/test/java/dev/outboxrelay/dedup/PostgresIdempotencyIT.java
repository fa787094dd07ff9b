package dev.outboxrelay.dedup;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresIdempotencyIT extends IdempotencyContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  DatabaseServer server() {
    return DB.server();
  }
}
