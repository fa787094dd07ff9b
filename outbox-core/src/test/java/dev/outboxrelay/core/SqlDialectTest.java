package dev.outboxrelay.core;

import static dev.outboxrelay.core.SqlDialect.MARIADB;
import static dev.outboxrelay.core.SqlDialect.MYSQL;
import static dev.outboxrelay.core.SqlDialect.POSTGRESQL;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The per-database fragments, spelled out: the relays', writer's and consumer-dedup's statements
 * are built from these, and their ITs run them on PostgreSQL and MariaDB.
 */
class SqlDialectTest {

  @Test
  void timesComeFromTheDatabaseClock() {
    assertThat(POSTGRESQL.now()).isEqualTo("now()");
    assertThat(POSTGRESQL.clockTimestamp()).isEqualTo("clock_timestamp()");
    assertThat(POSTGRESQL.nowPlusMillis()).isEqualTo("(now() + ? * interval '1 millisecond')");
    assertThat(POSTGRESQL.nowMinusMillis()).isEqualTo("(now() - ? * interval '1 millisecond')");
    assertThat(POSTGRESQL.clockMinusMicros())
        .isEqualTo("(clock_timestamp() - CAST(? AS bigint) * INTERVAL '1 microsecond')");
    assertThat(POSTGRESQL.millisSince("x")).isEqualTo("EXTRACT(EPOCH FROM (now() - x)) * 1000");
    for (SqlDialect d : new SqlDialect[] {MYSQL, MARIADB}) {
      assertThat(d.now()).isEqualTo("CURRENT_TIMESTAMP(6)").isEqualTo(d.clockTimestamp());
      assertThat(d.nowPlusMillis())
          .isEqualTo("(CURRENT_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND)");
      assertThat(d.nowMinusMillis())
          .isEqualTo("(CURRENT_TIMESTAMP(6) - INTERVAL ? * 1000 MICROSECOND)");
      assertThat(d.clockMinusMicros()).isEqualTo("(CURRENT_TIMESTAMP(6) - INTERVAL ? MICROSECOND)");
      assertThat(d.millisSince("x"))
          .isEqualTo("TIMESTAMPDIFF(MICROSECOND, x, CURRENT_TIMESTAMP(6)) / 1000");
    }
  }

  @Test
  void insertIgnoreSkipsAnExistingKey() {
    assertThat(POSTGRESQL.insertIgnore("\"t\"", "(a) VALUES (?)"))
        .isEqualTo("INSERT INTO \"t\" (a) VALUES (?) ON CONFLICT DO NOTHING");
    assertThat(MARIADB.insertIgnore("`t`", "(a) SELECT ?"))
        .isEqualTo("INSERT IGNORE INTO `t` (a) SELECT ?");
  }

  @Test
  void upsertNamesTheExistingAndTheProposedValue() {
    String pg =
        POSTGRESQL.upsert(
            "\"t\"",
            "(k, v) VALUES (?, ?)",
            "k",
            "v = " + POSTGRESQL.upsertProposed("v") + ", w = " + POSTGRESQL.upsertExisting("w"));
    assertThat(pg)
        .isEqualTo(
            "INSERT INTO \"t\" AS h (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE"
                + " SET v = EXCLUDED.v, w = h.w");
    String my =
        MYSQL.upsert(
            "`t`",
            "(k, v) VALUES (?, ?)",
            "k",
            "v = " + MYSQL.upsertProposed("v") + ", w = " + MYSQL.upsertExisting("w"));
    assertThat(my)
        .isEqualTo(
            "INSERT INTO `t` (k, v) VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v), w = w");
  }

  @Test
  void deleteAtMostLimitsBySubSelectOnPostgres() {
    assertThat(POSTGRESQL.deleteAtMost("\"t\"", "a, b", "c < ?", "c"))
        .isEqualTo(
            "DELETE FROM \"t\" WHERE (a, b) IN (SELECT a, b FROM \"t\" WHERE c < ?"
                + " ORDER BY c LIMIT ?)");
    assertThat(POSTGRESQL.deleteAtMost("\"t\"", "id", "c < ?", ""))
        .isEqualTo("DELETE FROM \"t\" WHERE (id) IN (SELECT id FROM \"t\" WHERE c < ? LIMIT ?)");
    assertThat(MARIADB.deleteAtMost("`t`", "a, b", "c < ?", "c"))
        .isEqualTo("DELETE FROM `t` WHERE c < ? ORDER BY c LIMIT ?");
  }
}
