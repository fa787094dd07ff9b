package dev.outboxrelay.relay.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import org.junit.jupiter.api.Test;

class StateSqlTest {
  private final OutboxTable table =
      OutboxTable.builder()
          .schema("app")
          .name("events")
          .column(OutboxColumn.AGGREGATE_ID, "entity_id")
          .build();

  @Test
  void stateTablesAreQuotedCompanionsOfTheOutboxTable() {
    StateSql pg = StateSql.of(table, SqlDialect.POSTGRESQL);
    assertThat(pg.parked()).isEqualTo("\"app\".\"events_parked\"");
    assertThat(pg.discarded()).isEqualTo("\"app\".\"events_discarded\"");
    assertThat(pg.lease()).isEqualTo("\"app\".\"events_lease\"");
    assertThat(pg.relay()).isEqualTo("\"app\".\"events_relay\"");
    assertThat(StateSql.of(table, SqlDialect.MARIADB).parked()).isEqualTo("`app`.`events_parked`");
  }

  @Test
  void aParkedKeyHoldsRowsOfItsKeyByTheConfiguredColumn() {
    assertThat(StateSql.of(table, SqlDialect.POSTGRESQL).notParked("o"))
        .isEqualTo(
            "NOT EXISTS (SELECT 1 FROM \"app\".\"events_parked\" p WHERE p.aggregateid ="
                + " o.\"entity_id\")");
  }

  /** The polling relay parks only while it holds the bucket; the CDC relay has no leases. */
  @Test
  void parkingIsFencedByTheLeaseOnlyWhenAsked() {
    StateSql maria = StateSql.of(table, SqlDialect.MARIADB);
    assertThat(maria.park())
        .contains("`app`.`events_parked` (aggregateid, message_id, bucket, reason) VALUES")
        .doesNotContain("_lease");
    assertThat(maria.parkWhileLeased())
        .contains("SELECT ?, ?, ?, ? FROM `app`.`events_lease` l WHERE l.bucket = ?")
        .endsWith("AND l.owner = ? AND l.expires_at > CURRENT_TIMESTAMP(6)");
  }

  @Test
  void reasonsAreCutToTheColumnsLength() {
    assertThat(StateSql.reason("x".repeat(5000))).hasSize(StateSql.MAX_REASON_LENGTH);
    assertThat(StateSql.reason("too large")).isEqualTo("too large");
  }
}
