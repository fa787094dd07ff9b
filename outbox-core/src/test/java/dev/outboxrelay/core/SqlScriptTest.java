package dev.outboxrelay.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one migration runner's parsing; running scripts is covered by each store's ITs. */
class SqlScriptTest {
  private final String script =
      SqlScript.load(SqlScriptTest.class, "/sqlscript/sample.sql", Map.of("table", "\"t\""));

  @Test
  void placeholdersAreReplacedAndCommentLinesDropped() {
    List<String> sql = SqlScript.statements(script);
    assertThat(String.join("\n", sql)).doesNotContain("${").doesNotContain("--");
    assertThat(sql.get(0))
        .startsWith("CREATE TABLE IF NOT EXISTS \"t\" (")
        .endsWith("PRIMARY KEY (id)\n)");
  }

  @Test
  void aDollarQuotedBodyStaysOneStatementWithItsInnerSemicolons() {
    List<String> sql = SqlScript.statements(script);
    assertThat(sql).hasSize(3);
    assertThat(sql.get(1))
        .startsWith("CREATE OR REPLACE FUNCTION \"t\"_f()")
        .contains("PERFORM 1;\n  RETURN NEW;\nEND;")
        .endsWith("$$ LANGUAGE plpgsql");
  }

  @Test
  void aLastStatementWithoutSemicolonIsKept() {
    assertThat(SqlScript.statements(script).get(2)).isEqualTo("INSERT INTO \"t\" (id) VALUES (1)");
    assertThat(SqlScript.statements("SELECT 1;\n\n-- end\n")).containsExactly("SELECT 1");
  }

  @Test
  void aMissingScriptIsNamed() {
    assertThatThrownBy(() -> SqlScript.load(SqlScriptTest.class, "/sqlscript/none.sql", Map.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Missing resource /sqlscript/none.sql");
  }
}
