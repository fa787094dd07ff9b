package dev.outboxrelay.it;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.testing.RelayFixture.RelayHandle;
import java.time.Duration;
import javax.sql.DataSource;

/** Starts the relays under test for the relay contract, with test-friendly timings. */
public final class Relays {
  private Relays() {}

  public static RelayHandle polling(String name, DataSource ds, Publisher publisher) {
    return polling(name, ds, publisher, OutboxTable.defaults());
  }

  public static RelayHandle polling(
      String name, DataSource ds, Publisher publisher, OutboxTable table) {
    PollingRelay relay =
        PollingRelay.builder()
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
    return handle(relay::close, relay::abort);
  }

  /** Every instance of one test shares the CDC name (one slot / binlog reader per database). */
  public static RelayHandle cdc(DataSource ds, Publisher publisher) {
    return cdc(ds, publisher, OutboxTable.defaults());
  }

  public static RelayHandle cdc(DataSource ds, Publisher publisher, OutboxTable table) {
    HikariDataSource hikari = (HikariDataSource) ds;
    CdcRelay relay =
        CdcRelay.builder()
            .name("cdc_" + hikari.getPoolName())
            .table(table)
            .source(hikari.getJdbcUrl(), hikari.getUsername(), hikari.getPassword())
            .dataSource(ds)
            .publisher(publisher)
            .backoff(Duration.ofMillis(200), Duration.ofSeconds(5))
            .build()
            .start();
    return handle(relay::close, relay::abort);
  }

  private static RelayHandle handle(Runnable stop, Runnable crash) {
    return new RelayHandle() {
      @Override
      public void stop() {
        stop.run();
      }

      @Override
      public void crash() {
        crash.run();
      }
    };
  }
}
