package dev.outboxrelay.it.cdc;

import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresCdcBehaviourIT extends CdcBehaviour {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  void losePosition(String relayName) throws Exception {
    execute("SELECT pg_drop_replication_slot('" + relayName + "')");
  }
}
