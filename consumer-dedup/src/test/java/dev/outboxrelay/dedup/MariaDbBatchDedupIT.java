package dev.outboxrelay.dedup;

import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.DatabaseServer;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbBatchDedupIT extends BatchDedupContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  DatabaseServer server() {
    return DB.server();
  }
}
