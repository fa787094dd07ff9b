package dev.outboxrelay.it.cdc;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.testing.RelayFixture.RelayHandle;
import java.time.Duration;
import javax.sql.DataSource;

/** Starts CDC relays for the relay contract, whatever the broker. */
public final class CdcRelays {
  private CdcRelays() {}

  /** Every instance of one test shares the CDC name (one slot / binlog reader per database). */
  public static RelayHandle start(DataSource ds, Publisher publisher) {
    HikariDataSource hikari = (HikariDataSource) ds;
    CdcRelay relay =
        CdcRelay.builder()
            .name("cdc_" + hikari.getPoolName())
            .source(hikari.getJdbcUrl(), hikari.getUsername(), hikari.getPassword())
            .dataSource(ds)
            .publisher(publisher)
            .backoff(Duration.ofMillis(200), Duration.ofSeconds(5))
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
