package dev.outboxrelay.it.cdc;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.it.KafkaRelayContract;
import dev.outboxrelay.it.Relays;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The relay contract for CDC on a table named {@code order}, a reserved word. */
class ReservedWordMariaDbCdcKafkaIT extends KafkaRelayContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected OutboxTable table() {
    return OutboxTable.builder().name("order").build();
  }

  @Override
  protected Relay startRelay(String name, DataSource ds, Publisher publisher) {
    return Relays.cdc(ds, publisher, table());
  }
}
