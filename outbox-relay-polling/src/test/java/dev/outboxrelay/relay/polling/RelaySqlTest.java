package dev.outboxrelay.relay.polling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import org.junit.jupiter.api.Test;

class RelaySqlTest {
  private final OutboxTable table =
      OutboxTable.builder()
          .schema("app")
          .name("events")
          .column(OutboxColumn.AGGREGATE_ID, "entity_id")
          .build();

  @Test
  void claimUsesQuotedNamesAndHoldsParkedKeys() {
    String pg = new RelaySql(table, SqlDialect.POSTGRESQL).claim(2, 1, 0, true, false);
    assertThat(pg)
        .contains("FROM \"app\".\"events\" o WHERE o.\"bucket\" IN (?, ?)")
        .contains(
            "NOT EXISTS (SELECT 1 FROM \"app\".\"events_parked\" p WHERE p.aggregateid = o.\"entity_id\")")
        .contains("AND o.\"entity_id\" NOT IN (?)")
        .contains("AND o.\"entity_id\" NOT IN (?) AND o.\"seq\" <= ? ORDER BY")
        .endsWith("ORDER BY o.\"seq\" LIMIT ?");
  }

  /** Rows acknowledged and awaiting their mark are skipped by their {@code seq}. */
  @Test
  void claimSkipsRowsAwaitingTheirMark() {
    String maria = new RelaySql(table, SqlDialect.MARIADB).claim(1, 0, 2, false, true);
    assertThat(maria)
        .contains("AND o.`published_at` IS NULL")
        .contains("AND o.`seq` NOT IN (?, ?) ORDER BY o.`seq` LIMIT ?")
        .doesNotContain("`entity_id` NOT IN");
  }

  /**
   * PostgreSQL: the rows by their {@code seq} (one array parameter), fenced by the leases read once
   * per statement (an InitPlan), not by a subquery per marked row.
   */
  @Test
  void marksAreFencedByTheLease() {
    String fence =
        " WHERE \"seq\" = ANY(?) AND \"bucket\" = ANY(ARRAY(SELECT l.bucket FROM"
            + " \"app\".\"events_lease\" l WHERE l.owner = ? AND l.expires_at > now()))";
    RelaySql pg = new RelaySql(table, SqlDialect.POSTGRESQL);
    assertThat(pg.markDone(false)).isEqualTo("DELETE FROM \"app\".\"events\"" + fence);
    assertThat(pg.markDone(true))
        .isEqualTo("UPDATE \"app\".\"events\" SET \"published_at\" = now()" + fence);
  }

  /**
   * PostgreSQL, after a mark that marked fewer rows than given: which of them are still pending.
   */
  @Test
  void rowsAMarkLeftArePendingOnesAmongItsSequences() {
    RelaySql pg = new RelaySql(table, SqlDialect.POSTGRESQL);
    assertThat(pg.stillPending(false))
        .isEqualTo("SELECT \"seq\" FROM \"app\".\"events\" WHERE \"seq\" = ANY(?)");
    assertThat(pg.stillPending(true))
        .isEqualTo(
            "SELECT \"seq\" FROM \"app\".\"events\" WHERE \"seq\" = ANY(?) AND \"published_at\""
                + " IS NULL");
  }

  /**
   * MariaDB: a non-locking read of the leases, then one mark of the rows by their primary key
   * ({@link dev.outboxrelay.core.rows.RowsByKey}).
   */
  @Test
  void mariaDbReadsTheLeasesWithoutLockingThem() {
    RelaySql maria = new RelaySql(table, SqlDialect.MARIADB);
    assertThat(maria.heldBuckets(2))
        .isEqualTo(
            "SELECT bucket FROM `app`.`events_lease` WHERE bucket IN (?, ?) AND owner = ?"
                + " AND expires_at > CURRENT_TIMESTAMP(6)");
    // The rows themselves: RowsByKeyTest (by seq, or by id in a table made before V7).
  }
}
