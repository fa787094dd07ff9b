package dev.outboxrelay.dedup.internal;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.SqlDialect;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a shipped migration script (Flyway names and placeholders) directly, for applications
 * without a migration tool. The scripts hold plain DDL only: statements end with a semicolon at the
 * end of a line and comment lines start with {@code --}.
 */
public final class Schema {
  private Schema() {}

  /** Runs {@code db/<area>/<dialect folder>/<script>} with the placeholders replaced. */
  public static void run(
      Connection connection, String area, String script, Map<String, String> placeholders) {
    SqlDialect dialect = SqlDialect.of(connection);
    try (Statement st = connection.createStatement()) {
      for (String sql : statements(render(dialect, area, script, placeholders))) {
        st.execute(sql);
      }
      if (!connection.getAutoCommit()) {
        connection.commit();
      }
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not run db/" + area + "/" + script, e);
    }
  }

  static String render(
      SqlDialect dialect, String area, String script, Map<String, String> placeholders) {
    String sql = read("/db/" + area + "/" + dialect.ddlFolder() + "/" + script);
    for (Map.Entry<String, String> p : placeholders.entrySet()) {
      sql = sql.replace("${" + p.getKey() + "}", p.getValue());
    }
    return sql;
  }

  static List<String> statements(String script) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : script.split("\n")) {
      if (line.isBlank() || line.stripLeading().startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      String trimmed = line.stripTrailing();
      if (trimmed.endsWith(";")) {
        statements.add(current.substring(0, current.lastIndexOf(";")).strip());
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      statements.add(current.toString().strip());
    }
    return statements;
  }

  private static String read(String path) {
    try (InputStream in = Schema.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("Missing resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
