package dev.outboxrelay.writer;

import java.util.ArrayList;
import java.util.List;

/** Splits a migration script into statements at semicolons outside dollar-quoted bodies. */
final class SqlScript {
  private SqlScript() {}

  static List<String> statements(String script) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inDollarQuote = false;
    for (String line : script.split("\n")) {
      if (line.stripLeading().startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      inDollarQuote ^= (line.split("\\$\\$", -1).length - 1) % 2 == 1;
      if (!inDollarQuote && line.stripTrailing().endsWith(";")) {
        add(statements, current);
      }
    }
    add(statements, current);
    return statements;
  }

  private static void add(List<String> statements, StringBuilder current) {
    String sql = current.toString().strip();
    if (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).strip();
    }
    if (!sql.isEmpty()) {
      statements.add(sql);
    }
    current.setLength(0);
  }
}
