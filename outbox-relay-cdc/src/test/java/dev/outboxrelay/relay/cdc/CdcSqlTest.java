package dev.outboxrelay.relay.cdc;

import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.rows.RowsByKey;
import org.junit.jupiter.api.Test;

/**
 * The shape of the statements that lock rows on MySQL/MariaDB: each names one row by a unique key
 * (an {@code IN} list can be planned as a locking scan); the behaviour is checked on a real server
 * by {@code MariaDbCdcOpenTransactionIT}.
 */
class CdcSqlTest {
  private final CdcSql mariadb = new CdcSql(OutboxTable.defaults(), SqlDialect.MARIADB, false);
  private final CdcSql kept = new CdcSql(OutboxTable.defaults(), SqlDialect.MARIADB, true);
  private final CdcSql postgres = new CdcSql(OutboxTable.defaults(), SqlDialect.POSTGRESQL, false);

  @Test
  void lockingReadsAreOnePointSelectPerRow() {
    assertThat(mariadb.lockEach(ID, 3))
        .isEqualTo(
            String.join(
                " UNION ALL ",
                java.util.Collections.nCopies(
                    3, "(SELECT `id` FROM `outbox` WHERE `id` = ? LOCK IN SHARE MODE)")));
    assertThat(kept.lockEach(SEQUENCE, 1))
        .isEqualTo(
            "(SELECT `seq` FROM `outbox` WHERE `seq` = ? AND `published_at` IS NULL"
                + " LOCK IN SHARE MODE)");
    assertThat(mariadb.locksToWait()).isTrue();
  }

  @Test
  void marksFindEachRowByPrimaryKeyInOneStatement() {
    // A table keyed by seq (V7): the published log's ids are found through the unique index on id.
    RowsByKey bySeq =
        RowsByKey.of(
            OutboxTable.defaults(),
            SqlDialect.MARIADB,
            java.util.Map.of("PRIMARY", "seq", "outbox_id", "id"));
    String ids =
        "JSON_TABLE(?, '$[*]' COLUMNS (i CHAR(36) CHARACTER SET ascii PATH '$')) AS v"
            + " STRAIGHT_JOIN `outbox` o FORCE INDEX (`outbox_id`) ON o.`id` = v.i";
    assertThat(bySeq.markByIds(false)).isEqualTo("DELETE o FROM " + ids);
    assertThat(bySeq.markByIds(true))
        .isEqualTo("UPDATE " + ids + " SET o.`published_at` = CURRENT_TIMESTAMP(6)");
    assertThat(postgres.state.markByIdArray(false))
        .isEqualTo("DELETE FROM \"outbox\" WHERE \"id\" = ANY(?)");
  }

  @Test
  void postgresReadsLockNothing() {
    assertThat(postgres.locksToWait()).isFalse();
    assertThat(postgres.stillPending(2)).doesNotContain("LOCK").contains("IN (?, ?)");
    assertThat(postgres.pendingBySeq(2)).doesNotContain("LOCK");
  }
}
