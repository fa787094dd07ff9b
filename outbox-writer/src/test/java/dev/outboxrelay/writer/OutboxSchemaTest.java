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
            "CREATE INDEX IF NOT EXISTS \"events_bucket_seq\" ON \"app\".\"events\" (bucket, seq)");
    assertThat(String.join("\n", sql)).doesNotContain("${");
  }

  @Test
  void mysqlKeepsTheIndexInsideCreateTable() {
    List<String> sql =
        OutboxSchema.render(SqlDialect.MARIADB, OutboxTable.defaults(), "V1__create_outbox.sql");
    assertThat(sql).singleElement().asString().contains("KEY `outbox_bucket_seq` (bucket, seq)");
  }

  @Test
  void indexNameFitsTheIdentifierLimit() {
    assertThat(OutboxSchema.indexName("t".repeat(63), "_bucket_seq")).hasSize(63);
  }

  @Test
  void customColumnsAreRefusedWithTheReason() {
    OutboxTable custom = OutboxTable.builder().column(OutboxColumn.PAYLOAD, "body").build();
    assertThatThrownBy(() -> OutboxSchema.createIfMissing(null, custom))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageContaining("default column names");
  }

  @Test
  void migrationsHaveFlywayNames() {
    assertThat(OutboxSchema.MIGRATIONS).allMatch(n -> n.matches("V\\d+__[a-z_]+\\.sql"));
    assertThat(OutboxSchema.location(SqlDialect.MYSQL)).isEqualTo("classpath:db/outbox/mysql");
  }
}
