package dev.outboxrelay.dedup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.SqlScript;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** consumer-dedup's shipped scripts as the shared runner ({@link SqlScript}) splits them. */
class MigrationScriptsTest {
  private static final Map<String, String> DEDUP =
      Map.of("dedup_table", "t", "dedup_processed_index", "i", "dedup_hwm_table", "h");
  private static final Map<String, String> KEYS =
      Map.of("idempotency_table", "k", "idempotency_completed_index", "ki");

  @Test
  void scriptsRenderToPlainStatementsWithEveryPlaceholderReplaced() {
    for (SqlDialect dialect : SqlDialect.values()) {
      List<String> dedup = statements(dialect, "dedup", "V1__create_dedup.sql", DEDUP);
      List<String> keys = statements(dialect, "idempotency", "V1__create_idempotency.sql", KEYS);
      assertThat(dedup).hasSize(dialect == SqlDialect.POSTGRESQL ? 3 : 2);
      assertThat(keys).hasSize(dialect == SqlDialect.POSTGRESQL ? 2 : 1);
      assertThat(String.join("\n", dedup) + String.join("\n", keys))
          .doesNotContain("${")
          .doesNotContain("--")
          .doesNotContain(";");
    }
  }

  private static List<String> statements(
      SqlDialect dialect, String area, String script, Map<String, String> placeholders) {
    String resource = "/db/" + area + "/" + dialect.ddlFolder() + "/" + script;
    return SqlScript.statements(SqlScript.load(DedupStore.class, resource, placeholders));
  }
}
