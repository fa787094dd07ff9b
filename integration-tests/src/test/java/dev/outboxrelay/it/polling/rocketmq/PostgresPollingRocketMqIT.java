package dev.outboxrelay.it.polling.rocketmq;

import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.DatabaseServer;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresPollingRocketMqIT extends RocketMqRelayContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }
}
