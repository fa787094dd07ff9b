package dev.outboxrelay.core.rows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RowsByKeyTest {
  private static final OutboxTable EVENTS =
      OutboxTable.builder().schema("app").name("events").build();

  /** V1 then V7: clustered by seq, id unique. */
  private static final Map<String, String> BY_SEQ = Map.of("PRIMARY", "seq", "events_id", "id");

  /** V1 alone (a table made before V7): clustered by id, seq unique. */
  private static final Map<String, String> BY_ID = Map.of("PRIMARY", "id", "seq", "seq");

  private record Row(UUID id, long seq) {}

  @Test
  void theIdsGoInAscendingOrderSoTwoStatementsLockTheirRowsInTheSameOrder() {
    UUID a = UUID.fromString("0a000000-0000-0000-0000-000000000000");
    UUID b = UUID.fromString("f0000000-0000-0000-0000-000000000000");
    assertThat(RowsByKey.json(List.of(b, a))).isEqualTo("[\"" + a + "\",\"" + b + "\"]");
    assertThat(RowsByKey.json(List.of())).isEqualTo("[]");
    assertThat(RowsByKey.jsonOfSequences(List.of(10L, 9L, 100L))).isEqualTo("[9,10,100]");
    assertThat(RowsByKey.jsonOfSequences(List.of())).isEqualTo("[]");
  }

  @Test
  void aTableClusteredBySeqHasItsRowsNamedBySeqThroughThePrimaryKey() {
    RowsByKey rows = RowsByKey.of(EVENTS, SqlDialect.MARIADB, BY_SEQ);
    assertThat(rows.key()).isEqualTo(OutboxColumn.SEQUENCE);
    assertThat(rows.join(rows.key()))
        .isEqualTo(
            "JSON_TABLE(?, '$[*]' COLUMNS (i BIGINT PATH '$')) AS v"
                + " STRAIGHT_JOIN `app`.`events` o FORCE INDEX (PRIMARY) ON o.`seq` = v.i");
    UUID id = UUID.randomUUID();
    assertThat(rows.json(List.of(new Row(id, 7), new Row(id, 3)), Row::id, Row::seq))
        .isEqualTo("[3,7]");
    // Ids alone (the CDC relay's published log) go through the unique index on id.
    assertThat(rows.markByIds(false))
        .isEqualTo(
            "DELETE o FROM JSON_TABLE(?, '$[*]' COLUMNS (i CHAR(36) CHARACTER SET ascii PATH '$'))"
                + " AS v STRAIGHT_JOIN `app`.`events` o FORCE INDEX (`events_id`) ON o.`id` = v.i");
  }

  @Test
  void aTableMadeBeforeV7HasItsRowsNamedByIdAsBefore() {
    RowsByKey rows = RowsByKey.of(EVENTS, SqlDialect.MARIADB, BY_ID);
    assertThat(rows.key()).isEqualTo(OutboxColumn.ID);
    String byId =
        "JSON_TABLE(?, '$[*]' COLUMNS (i CHAR(36) CHARACTER SET ascii PATH '$')) AS v"
            + " STRAIGHT_JOIN `app`.`events` o FORCE INDEX (PRIMARY) ON o.`id` = v.i";
    assertThat(rows.mark(false)).isEqualTo("DELETE o FROM " + byId);
    assertThat(rows.markByIds(true))
        .isEqualTo("UPDATE " + byId + " SET o.`published_at` = " + SqlDialect.MARIADB.now());
    UUID a = UUID.fromString("0a000000-0000-0000-0000-000000000000");
    UUID b = UUID.fromString("f0000000-0000-0000-0000-000000000000");
    assertThat(rows.json(List.of(new Row(b, 1), new Row(a, 2)), Row::id, Row::seq))
        .isEqualTo(RowsByKey.json(List.of(a, b)));
  }

  @Test
  void aPurgeDeletesTheNamedRowsOnlyIfStillPublishedLongEnoughAgo() {
    RowsByKey rows = RowsByKey.of(OutboxTable.defaults(), SqlDialect.MARIADB, BY_SEQ);
    assertThat(rows.purge())
        .isEqualTo(
            "DELETE o FROM "
                + rows.join(OutboxColumn.SEQUENCE)
                + " WHERE o.`published_at` < "
                + SqlDialect.MARIADB.nowMinusMillis());
  }

  @Test
  void columnNamesMatchWhateverTheirCaseAndCustomColumnsAreFollowed() {
    OutboxTable custom =
        OutboxTable.builder()
            .name("events")
            .column(OutboxColumn.ID, "event_id")
            .column(OutboxColumn.SEQUENCE, "position")
            .build();
    RowsByKey rows =
        RowsByKey.of(
            custom, SqlDialect.MYSQL, Map.of("PRIMARY", "Position", "uq_event", "EVENT_ID"));
    assertThat(rows.key()).isEqualTo(OutboxColumn.SEQUENCE);
    assertThat(rows.markByIds(false))
        .endsWith("`events` o FORCE INDEX (`uq_event`) ON o.`event_id` = v.i");
  }

  @Test
  void aTableWithoutAUniqueIndexOnEachKeyAloneIsRefusedNamingWhatItHas() {
    // A unique index of two columns does not name a row.
    Map<String, String> indexes = Map.of("PRIMARY", "seq", "id_and_key", "id,aggregateid");
    assertThatThrownBy(() -> RowsByKey.of(EVENTS, SqlDialect.MARIADB, indexes))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageContaining("table must have a unique index on its id column alone")
        .hasMessageContaining("id_and_key=id,aggregateid")
        .hasMessageContaining("`app`.`events`");
    assertThatThrownBy(() -> RowsByKey.of(EVENTS, SqlDialect.MARIADB, Map.of("PRIMARY", "id")))
        .hasMessageContaining("unique index on its seq column alone");
  }
}
