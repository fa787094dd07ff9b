package dev.outboxrelay.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SqlTemplateTest {
  private final OutboxTable table =
      OutboxTable.builder()
          .schema("app")
          .name("events")
          .column(OutboxColumn.AGGREGATE_ID, "entity_id")
          .column(OutboxColumn.SEQUENCE, "position")
          .build();

  @Test
  void placeholdersBecomeTheTablesQuotedNames() {
    SqlTemplate pg = SqlTemplate.of(table, SqlDialect.POSTGRESQL);
    assertThat(pg.sql("SELECT {id}, {aggregate_id} FROM {outbox} ORDER BY {sequence}"))
        .isEqualTo("SELECT \"id\", \"entity_id\" FROM \"app\".\"events\" ORDER BY \"position\"");
    assertThat(SqlTemplate.of(table, SqlDialect.MARIADB).sql("SET {published_at} = {now}"))
        .isEqualTo("SET `published_at` = CURRENT_TIMESTAMP(6)");
  }

  @Test
  void companionsAndFragmentsAreNamedToo() {
    SqlTemplate t =
        SqlTemplate.of(table, SqlDialect.MARIADB)
            .withCompanions("parked")
            .with("pending", " AND {published_at} IS NULL");
    assertThat(t.sql("SELECT aggregateid FROM {parked} WHERE 1=1{pending}"))
        .isEqualTo(
            "SELECT aggregateid FROM `app`.`events_parked` WHERE 1=1 AND `published_at` IS NULL");
    assertThat(t.sql("no placeholders")).isEqualTo("no placeholders");
  }

  @Test
  void anUnknownOrUnclosedPlaceholderFails() {
    SqlTemplate t = SqlTemplate.of(table, SqlDialect.POSTGRESQL);
    assertThatThrownBy(() -> t.sql("SELECT {seq} FROM {outbox}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("{seq}");
    assertThatThrownBy(() -> t.sql("SELECT {id FROM x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("{id FROM x");
    assertThatThrownBy(() -> t.with("bad", "{nope}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("{nope}");
  }

  @Test
  void marksAreCommaSeparated() {
    assertThat(SqlTemplate.marks(3)).isEqualTo("?, ?, ?");
    assertThat(SqlTemplate.marks(1)).isEqualTo("?");
  }
}
