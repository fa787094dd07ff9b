package dev.outboxrelay.it.cdc;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.it.Relays;
import dev.outboxrelay.it.polling.rocketmq.RocketMqRelayContract;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The CDC relay passes the relay contract against real RocketMQ. */
class PostgresCdcRocketMqIT extends RocketMqRelayContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  protected DatabaseServer database() {
    return DB.server();
  }

  @Override
  protected Relay startRelay(String name, DataSource ds, Publisher publisher) {
    return Relays.cdc(ds, publisher);
  }
}
