package dev.outboxrelay.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.cdc.internal.debezium.EngineProperties;
import dev.outboxrelay.testing.InMemoryPublisher;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

class CdcConfigTest {

  private CdcRelayConfig config(String url, Map<String, String> debezium) {
    CdcRelay relay =
        CdcRelay.builder()
            .name("orders-cdc")
            .source(url, "cdc", "s3cret")
            .dataSource(new PGSimpleDataSource())
            .publisher(new InMemoryPublisher())
            .debeziumProperties(debezium)
            .build();
    return relay.config();
  }

  @Test
  void postgresStreamsWithPgoutputFromNowWithOffsetsInTheDatabase() {
    CdcRelayConfig c = config("jdbc:postgresql://db:5433/shop", Map.of());
    Properties p =
        DebeziumConfig.of(c, new CdcSql(OutboxTable.defaults(), SqlDialect.POSTGRESQL, false));
    assertThat(p)
        .containsEntry("connector.class", "io.debezium.connector.postgresql.PostgresConnector")
        .containsEntry("plugin.name", "pgoutput")
        .containsEntry("slot.name", "orders_cdc")
        .containsEntry("database.hostname", "db")
        .containsEntry("database.port", "5433")
        .containsEntry("database.dbname", "shop")
        .containsEntry("table.include.list", "public.outbox")
        .containsEntry("outboxcreatedat.table", "public.outbox")
        .containsEntry("snapshot.mode", "no_data")
        .containsEntry("poll.interval.ms", "20")
        .containsEntry(
            "offset.storage",
            "dev.outboxrelay.relay.cdc.internal.debezium.MaskedJdbcOffsetBackingStore")
        .containsEntry("offset.storage.jdbc.table.name", "outbox_cdc_offsets");
  }

  @Test
  void mariadbUsesItsConnectorAndJdbcSchemaHistory() {
    CdcRelayConfig c = config("jdbc:mariadb://db/shop", Map.of("poll.interval.ms", "50"));
    Properties p =
        DebeziumConfig.of(c, new CdcSql(OutboxTable.defaults(), SqlDialect.MARIADB, false));
    assertThat(p)
        .containsEntry("connector.class", "io.debezium.connector.mariadb.MariaDbConnector")
        .containsEntry("database.port", "3306")
        .containsEntry("table.include.list", "shop.outbox")
        .containsEntry("converters", "outboxcreatedat")
        .containsEntry(
            "outboxcreatedat.type",
            "dev.outboxrelay.relay.cdc.internal.debezium.CreatedAtConverter")
        .containsEntry("outboxcreatedat.table", "shop.outbox")
        .containsEntry("outboxcreatedat.column", "created_at")
        .containsEntry("extended.headers.enabled", "false")
        .containsEntry("column.exclude.list", "\\Qshop.outbox.published_at\\E")
        .containsEntry(
            "schema.history.internal", "io.debezium.storage.jdbc.history.JdbcSchemaHistory")
        .containsEntry("schema.history.internal.jdbc.table.name", "outbox_cdc_history")
        .containsEntry("poll.interval.ms", "50");
    assertThat(p.stringPropertyNames())
        .as("no name Debezium deprecated: each would log a WARN at every start")
        .doesNotContainAnyElementsOf(EngineProperties.RENAMED.keySet());
  }

  @Test
  void aUsersSettingUnderDebeziumsDeprecatedNameStillWins() {
    CdcRelayConfig c =
        config(
            "jdbc:mariadb://db/shop",
            Map.of("offset.storage.jdbc.offset.table.name", "my_offsets"));
    Properties p =
        DebeziumConfig.of(c, new CdcSql(OutboxTable.defaults(), SqlDialect.MARIADB, false));
    assertThat(p)
        .containsEntry("offset.storage.jdbc.table.name", "my_offsets")
        .doesNotContainKey("offset.storage.jdbc.offset.table.name");
  }

  @Test
  void aColumnIncludeListOfTheUsersReplacesTheExcludeList() {
    // Debezium refuses a configuration with both lists; this one leaves out a column of the user's.
    String include =
        "shop.outbox.(id|aggregatetype|aggregateid|type|payload|headers|traceparent|seq|bucket"
            + "|created_at)";
    CdcRelayConfig c = config("jdbc:mariadb://db/shop", Map.of("column.include.list", include));
    Properties p =
        DebeziumConfig.of(c, new CdcSql(OutboxTable.defaults(), SqlDialect.MARIADB, false));
    assertThat(p)
        .containsEntry("column.include.list", include)
        .doesNotContainKey("column.exclude.list");
  }

  @Test
  void badSettingsNameTheKeyAndValue() {
    assertThatThrownBy(() -> CdcRelay.builder().source("jdbc:oracle:thin:@x", "u", "p"))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith(
            "jdbcUrl must look like jdbc:<postgresql|mariadb|mysql>://host[:port]/database, but was 'jdbc:oracle:thin:@x'");
    assertThatThrownBy(() -> CdcRelay.builder().name("1 bad"))
        .hasMessage("name must match [A-Za-z][A-Za-z0-9_-]{0,40}, but was '1 bad'");
    assertThatThrownBy(() -> CdcRelay.builder().publisher(new InMemoryPublisher()).build())
        .hasMessage("source is required, but was null");
  }

  @Test
  void theRelaysBatchSizeIsDebeziumsBatchSoItBoundsDuplicates() {
    Properties defaults =
        DebeziumConfig.of(
            config("jdbc:mariadb://db/shop", Map.of()),
            new CdcSql(OutboxTable.defaults(), SqlDialect.MARIADB, false));
    assertThat(defaults)
        .containsEntry("max.batch.size", "2048")
        .containsEntry("max.queue.size", "8192");
    CdcRelayConfig big =
        CdcRelay.builder()
            .source("jdbc:mariadb://db/shop", "cdc", "s3cret")
            .dataSource(new PGSimpleDataSource())
            .publisher(new InMemoryPublisher())
            .batchSize(5000)
            .build()
            .config();
    assertThat(
            DebeziumConfig.of(big, new CdcSql(OutboxTable.defaults(), SqlDialect.MARIADB, false)))
        .containsEntry("max.batch.size", "5000")
        .containsEntry("max.queue.size", "20000");
  }

  @Test
  void debeziumBatchingThatWouldBreakTheBoundIsRefused() {
    assertThatThrownBy(() -> config("jdbc:mariadb://db/shop", Map.of("max.batch.size", "500")))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith(
            "debeziumProperties.max.batch.size is set by the relay from batchSize (2048)");
    assertThatThrownBy(() -> config("jdbc:mariadb://db/shop", Map.of("max.queue.size", "2048")))
        .hasMessageStartingWith(
            "debeziumProperties.max.queue.size must be a whole number larger than batchSize (2048), but was '2048'");
    assertThat(config("jdbc:mariadb://db/shop", Map.of("max.queue.size", "2049")).debezium())
        .containsEntry("max.queue.size", "2049");
    assertThatThrownBy(() -> CdcRelay.builder().batchSize(0))
        .hasMessage("batchSize must be between 1 and 10000, but was 0");
  }

  @Test
  void theSharedSettersReturnThisBuilderAndTakeThisRelaysDefaults() {
    CdcRelayConfig c =
        CdcRelay.builder()
            .backoffInitial(Duration.ofMillis(200))
            .backoffMax(Duration.ofSeconds(2))
            .source("jdbc:mariadb://db/shop", "cdc", "s3cret")
            .dataSource(new PGSimpleDataSource())
            .publisher(new InMemoryPublisher())
            .build()
            .config();
    assertThat(c.name()).isEqualTo("outbox-cdc");
    assertThat(c.batchSize()).isEqualTo(2048);
    assertThat(c.pollInterval()).isEqualTo(Duration.ofMillis(20));
    assertThat(c.core().backoffInitial()).isEqualTo(Duration.ofMillis(200));
    assertThat(c.core().backoffMax()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.keepRows()).isFalse();
  }

  @Test
  @SuppressWarnings("deprecation")
  void keepPublishedForIsARetentionAndInvertedBackoffBoundsFailTheBuild() {
    CdcRelayBuilder b =
        CdcRelay.builder()
            .source("jdbc:mariadb://db/shop", "cdc", "s3cret")
            .dataSource(new PGSimpleDataSource())
            .publisher(new InMemoryPublisher())
            .keepPublishedFor(Duration.ofHours(1));
    assertThat(b.build().config().retention().window()).contains(Duration.ofHours(1));
    assertThatThrownBy(() -> b.keepPublishedFor(Duration.ZERO))
        .hasMessage("keepPublishedFor must be at least PT0.001S, but was PT0S");
    b.backoff(Duration.ofSeconds(5), Duration.ofSeconds(1));
    assertThatThrownBy(b::build)
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("backoffMax must be at least backoffInitial PT5S, but was PT1S");
  }
}
