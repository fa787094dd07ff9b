package dev.outboxrelay.it.sql;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresSqlBatchIT extends SqlBatchContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  DatabaseServer server() {
    return DB.server();
  }
}
