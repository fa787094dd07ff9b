package dev.outboxrelay.it.polling;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.it.KafkaRelayContract;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The relay contract on a table named {@code order}, a reserved word. */
class ReservedWordMariaDbPollingKafkaIT extends KafkaRelayContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected OutboxTable table() {
    return OutboxTable.builder().name("order").build();
  }
}
