package dev.outboxrelay.it.hwm;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.testing.DatabaseExtension;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Polling relay with strict order (seq order, PostgreSQL only), Kafka. */
class PollingStrictPostgresHighWaterMarkIT extends KafkaHighWaterMarkContract {
  @RegisterExtension static final DatabaseExtension DB = DatabaseExtension.postgres();

  @Override
  DatabaseServer database() {
    return DB.server();
  }

  @Override
  Relay startRelay(DataSource ds, Publisher publisher) {
    return PollingRelay.builder()
        .name("hwm-strict")
        .dataSource(ds)
        .publisher(publisher)
        .strictOrder(true)
        .pollInterval(Duration.ofMillis(100))
        .build()
        .start();
  }
}
