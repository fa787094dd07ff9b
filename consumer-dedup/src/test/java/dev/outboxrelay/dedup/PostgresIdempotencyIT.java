package dev.outboxrelay.dedup;

import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.DatabaseServer;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresIdempotencyIT extends IdempotencyContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  DatabaseServer server() {
    return DB.server();
  }
}
