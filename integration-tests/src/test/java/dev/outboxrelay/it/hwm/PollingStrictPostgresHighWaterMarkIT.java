package dev.outboxrelay.it.hwm;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.testing.DatabaseExtension;
import dev.outboxrelay.testing.DatabaseServer;
import dev.outboxrelay.testing.RelayFixture.RelayHandle;
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
  RelayHandle startRelay(DataSource ds, Publisher publisher) {
    PollingRelay relay =
        PollingRelay.builder()
            .name("hwm-strict")
            .dataSource(ds)
            .publisher(publisher)
            .strictOrder(true)
            .pollInterval(Duration.ofMillis(100))
            .build()
            .start();
    return new RelayHandle() {
      @Override
      public void stop() {
        relay.close();
      }

      @Override
      public void crash() {
        relay.abort();
      }
    };
  }
}
