package dev.outboxrelay.it.hwm;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.it.Relays;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Polling relay, default order (commit order per key), MariaDB, Kafka. */
class PollingMariaDbHighWaterMarkIT extends KafkaHighWaterMarkContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.mariadb();

  @Override
  DatabaseServer database() {
    return DB.server();
  }

  @Override
  boolean appliesSecondBeforeFirstCommits() {
    return true;
  }

  @Override
  Relay startRelay(DataSource ds, Publisher publisher) {
    return Relays.polling("hwm", ds, publisher);
  }
}
