package dev.outboxrelay.core.rows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RowsByIdTest {

  @Test
  void theIdsGoInAscendingOrderSoTwoStatementsLockTheirRowsInTheSameOrder() {
    UUID a = UUID.fromString("0a000000-0000-0000-0000-000000000000");
    UUID b = UUID.fromString("f0000000-0000-0000-0000-000000000000");
    assertThat(RowsById.json(List.of(b, a))).isEqualTo("[\"" + a + "\",\"" + b + "\"]");
    assertThat(RowsById.json(List.of())).isEqualTo("[]");
  }

  @Test
  void theJoinIsTheArrayFirstThenAPrimaryKeyLookupOfTheQuotedTable() {
    OutboxTable table = OutboxTable.builder().schema("app").name("events").build();
    assertThat(RowsById.join(table, SqlDialect.MARIADB))
        .isEqualTo(
            "JSON_TABLE(?, '$[*]' COLUMNS (i CHAR(36) CHARACTER SET ascii PATH '$')) AS v"
                + " STRAIGHT_JOIN `app`.`events` o FORCE INDEX (PRIMARY) ON o.`id` = v.i");
  }

  @Test
  void aPurgeDeletesTheNamedRowsOnlyIfStillPublishedLongEnoughAgo() {
    OutboxTable table = OutboxTable.builder().name("outbox").build();
    assertThat(RowsById.purge(table, SqlDialect.MARIADB))
        .isEqualTo(
            "DELETE o FROM "
                + RowsById.join(table, SqlDialect.MARIADB)
                + " WHERE o.`published_at` < "
                + SqlDialect.MARIADB.nowMinusMillis());
  }
}
