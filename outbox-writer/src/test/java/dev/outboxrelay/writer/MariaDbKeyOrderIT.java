package dev.outboxrelay.writer;

import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.DatabaseServer;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbKeyOrderIT extends KeyOrderContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  DatabaseServer server() {
    return DB.server();
  }
}
