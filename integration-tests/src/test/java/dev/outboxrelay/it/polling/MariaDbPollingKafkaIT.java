package dev.outboxrelay.it.polling;

import dev.outboxrelay.it.KafkaRelayContract;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbPollingKafkaIT extends KafkaRelayContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }
}
