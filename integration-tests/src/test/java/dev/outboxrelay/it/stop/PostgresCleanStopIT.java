package dev.outboxrelay.it.stop;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresCleanStopIT extends CleanStopBehaviour {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }
}
