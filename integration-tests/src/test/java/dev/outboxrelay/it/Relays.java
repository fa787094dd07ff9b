package dev.outboxrelay.it;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.polling.PollingRelay;
import java.time.Duration;
import javax.sql.DataSource;

/** Starts the relays under test for the relay contract, with test-friendly timings. */
public final class Relays {
  private Relays() {}

  public static Relay polling(String name, DataSource ds, Publisher publisher) {
    return polling(name, ds, publisher, OutboxTable.defaults());
  }

  public static Relay polling(String name, DataSource ds, Publisher publisher, OutboxTable table) {
    return PollingRelay.builder()
        .name(name)
        .table(table)
        .dataSource(ds)
        .publisher(publisher)
        .batchSize(200)
        .leaseDuration(Duration.ofSeconds(3))
        .pollInterval(Duration.ofMillis(100))
        .backoffInitial(Duration.ofMillis(200))
        .backoffMax(Duration.ofSeconds(5))
        .build()
        .start();
  }

  /** Every instance of one test shares the CDC name (one slot / binlog reader per database). */
  public static Relay cdc(DataSource ds, Publisher publisher) {
    return cdc(ds, publisher, OutboxTable.defaults());
  }

  public static Relay cdc(DataSource ds, Publisher publisher, OutboxTable table) {
    HikariDataSource hikari = (HikariDataSource) ds;
    return CdcRelay.builder()
        .name("cdc_" + hikari.getPoolName())
        .table(table)
        .source(hikari.getJdbcUrl(), hikari.getUsername(), hikari.getPassword())
        .dataSource(ds)
        .publisher(publisher)
        .backoff(Duration.ofMillis(200), Duration.ofSeconds(5))
        .build()
        .start();
  }
}
