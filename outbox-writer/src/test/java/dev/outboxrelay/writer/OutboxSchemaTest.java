package dev.outboxrelay.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutboxSchemaTest {

  @Test
  void rendersQuotedTableAndIndexNames() {
    OutboxTable table = OutboxTable.builder().schema("app").name("events").build();
    List<String> sql = OutboxSchema.render(SqlDialect.POSTGRESQL, table, "V1__create_outbox.sql");
    assertThat(sql).hasSize(2);
    assertThat(sql.get(0)).startsWith("CREATE TABLE IF NOT EXISTS \"app\".\"events\" (");
    assertThat(sql.get(1))
        .isEqualTo(
            "CREATE INDEX IF NOT EXISTS \"events_bucket_seq\" ON \"app\".\"events\" (bucket, seq) WHERE published_at IS NULL");
    assertThat(String.join("\n", sql)).doesNotContain("${");
  }

  @Test
  void mysqlKeepsTheIndexInsideCreateTable() {
    List<String> sql =
        OutboxSchema.render(SqlDialect.MARIADB, OutboxTable.defaults(), "V1__create_outbox.sql");
    assertThat(sql)
        .singleElement()
        .asString()
        .contains("KEY `outbox_bucket_seq` (bucket, published_at, seq)");
  }

  @Test
  void companionNamesFitTheIdentifierLimit() {
    OutboxTable longName = OutboxTable.builder().name("t".repeat(63)).build();
    assertThat(longName.companionName("bucket_seq")).hasSize(63).endsWith("_bucket_seq");
  }

  @Test
  void postgresRelayStateKeepsDollarQuotedBodiesWhole() {
    List<String> sql =
        OutboxSchema.render(
            SqlDialect.POSTGRESQL, OutboxTable.defaults(), "V2__polling_relay_state.sql");
    assertThat(sql).hasSize(5);
    assertThat(sql.get(3))
        .startsWith("CREATE OR REPLACE FUNCTION \"outbox_notify\"()")
        .endsWith("$$");
    assertThat(sql.get(4)).contains("CREATE TRIGGER outbox_notify AFTER INSERT ON \"outbox\"");
    assertThat(String.join("\n", sql)).doesNotContain("${");
  }

  @Test
  void postgresNotifiesAtCommitThroughADeferredTriggerNamedAfterTheTable() {
    OutboxTable table = OutboxTable.builder().schema("app").name("Events").build();
    String sql =
        String.join(
            "\n", OutboxSchema.render(SqlDialect.POSTGRESQL, table, "V6__notify_at_commit.sql"));
    assertThat(sql)
        .contains("CREATE SEQUENCE IF NOT EXISTS \"app\".\"Events_notify_clock\"")
        .contains("WHERE c.oid = '\"app\".\"Events_notify_clock\"'::regclass")
        .contains("SECURITY DEFINER SET search_path = pg_catalog, pg_temp")
        .contains("current_setting('outbox_relay.events_notify', true)")
        .contains("CREATE CONSTRAINT TRIGGER events_notify AFTER INSERT ON \"app\".\"Events\"")
        .contains("WHEN (\"app\".\"Events_notify_once\"())")
        .contains("PERFORM pg_notify(%3$L, '')")
        .contains("$body$ $f$, clock, clock, 'events')")
        .doesNotContain("${");
    assertThat(OutboxSchema.migrations(SqlDialect.MARIADB))
        .doesNotContain("V6__notify_at_commit.sql");
  }

  @Test
  void postgresV8DropsV6sTriggerFunctionsAndClockNamedAfterTheTable() {
    OutboxTable table = OutboxTable.builder().schema("app").name("Events").build();
    assertThat(
            OutboxSchema.render(
                SqlDialect.POSTGRESQL, table, OutboxSchema.WAKE_UP_FROM_WRITER_MIGRATION))
        .containsExactly(
            "DROP TRIGGER IF EXISTS events_notify ON \"app\".\"Events\"",
            "DROP FUNCTION IF EXISTS \"app\".\"Events_notify\"()",
            "DROP FUNCTION IF EXISTS \"app\".\"Events_notify_once\"()",
            "DROP SEQUENCE IF EXISTS \"app\".\"Events_notify_clock\"");
    assertThat(OutboxSchema.migrations(SqlDialect.MARIADB))
        .doesNotContain(OutboxSchema.WAKE_UP_FROM_WRITER_MIGRATION);
  }

  @Test
  void discardedMessagesHaveACompanionTableNamedAfterTheOutbox() {
    OutboxTable table = OutboxTable.builder().schema("app").name("events").build();
    for (SqlDialect dialect : List.of(SqlDialect.POSTGRESQL, SqlDialect.MARIADB)) {
      assertThat(OutboxSchema.render(dialect, table, "V3__discarded.sql"))
          .singleElement()
          .asString()
          .startsWith(
              "CREATE TABLE IF NOT EXISTS " + table.qualifiedCompanion(dialect, "discarded"))
          .doesNotContain("${");
    }
  }

  @Test
  void customColumnsAreRefusedWithTheReason() {
    OutboxTable custom = OutboxTable.builder().column(OutboxColumn.PAYLOAD, "body").build();
    assertThatThrownBy(() -> OutboxSchema.createIfMissing(null, custom))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageContaining("default column names");
  }

  @Test
  void onlyMysqlHasTheKeyLockTable() {
    assertThat(OutboxSchema.migrations(SqlDialect.POSTGRESQL))
        .doesNotContain("V4__writer_key_lock.sql")
        .endsWith(
            "V5__dead_letter.sql", "V6__notify_at_commit.sql", "V8__wake_up_from_the_writer.sql");
    assertThat(OutboxSchema.migrations(SqlDialect.MARIADB))
        .endsWith("V4__writer_key_lock.sql", "V5__dead_letter.sql");
    OutboxTable table = OutboxTable.builder().name("events").build();
    assertThat(OutboxSchema.render(SqlDialect.MYSQL, table, "V4__writer_key_lock.sql"))
        .hasSize(2)
        .satisfies(
            sql -> {
              assertThat(sql.get(0)).startsWith("CREATE TABLE IF NOT EXISTS `events_key_lock` (");
              // Every slot filled once, so the writer's upsert always locks an existing row.
              assertThat(sql.get(1))
                  .startsWith("INSERT IGNORE INTO `events_key_lock` (slot)")
                  .endsWith("WHERE NOT EXISTS (SELECT 1 FROM `events_key_lock`)");
            });
  }

  @Test
  void keyLockSlotsAreStableAndWithinTheTable() {
    // CRC-32 of the UTF-8 bytes, low 16 bits: the same slot in every JVM and writer version.
    assertThat(KeyLocks.slot("order-42")).isEqualTo(KeyLocks.slot("order-42"));
    assertThat(KeyLocks.slot("a")).isEqualTo((int) (0xe8b7be43L & 0xFFFF));
    assertThat(java.util.stream.IntStream.range(0, 1000).map(i -> KeyLocks.slot("k" + i)))
        .allMatch(slot -> slot >= 0 && slot < KeyLocks.SLOTS);
  }

  @Test
  void migrationsHaveFlywayNames() {
    assertThat(OutboxSchema.migrations(SqlDialect.MYSQL))
        .allMatch(n -> n.matches("V\\d+__[a-z_]+\\.sql"));
    assertThat(OutboxSchema.location(SqlDialect.MYSQL)).isEqualTo("classpath:db/outbox/mysql");
  }
}
