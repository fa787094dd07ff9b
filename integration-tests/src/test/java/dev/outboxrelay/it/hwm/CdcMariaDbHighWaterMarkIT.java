package dev.outboxrelay.it.hwm;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.it.Relays;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** CDC relay (commit order), MariaDB, Kafka. */
class CdcMariaDbHighWaterMarkIT extends KafkaHighWaterMarkContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  DatabaseServer database() {
    return DB.server();
  }

  @Override
  Relay startRelay(DataSource ds, Publisher publisher) {
    return Relays.cdc(ds, publisher);
  }
}
