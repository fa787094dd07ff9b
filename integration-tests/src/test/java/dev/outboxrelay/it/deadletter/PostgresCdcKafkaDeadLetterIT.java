package dev.outboxrelay.it.deadletter;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.cdc.CdcRelay;
import java.time.Duration;

/**
 * The dead-letter topic with the CDC relay on PostgreSQL and KafkaPublisher: every relay of a test
 * shares one CDC name (slot, lock), so the second is the restart of the first.
 */
class PostgresCdcKafkaDeadLetterIT extends PostgresKafkaDeadLetterIT {
  @Override
  protected Relay buildRelay(
      String name,
      HikariDataSource dataSource,
      Publisher publisher,
      String deadLetterTopic,
      RelayListener listener) {
    return CdcRelay.builder()
        .name("cdc_" + dataSource.getPoolName())
        .source(dataSource.getJdbcUrl(), dataSource.getUsername(), dataSource.getPassword())
        .dataSource(dataSource)
        .publisher(publisher)
        .deadLetterTopic(deadLetterTopic)
        .backoff(Duration.ofMillis(200), Duration.ofSeconds(2))
        .listener(listener)
        .build();
  }
}
