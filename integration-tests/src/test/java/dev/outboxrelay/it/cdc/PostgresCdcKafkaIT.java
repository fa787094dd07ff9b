package dev.outboxrelay.it.cdc;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.it.KafkaRelayContract;
import dev.outboxrelay.it.Relays;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresCdcKafkaIT extends KafkaRelayContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected Relay startRelay(String name, javax.sql.DataSource ds, Publisher publisher) {
    return Relays.cdc(ds, publisher);
  }
}
