package dev.outboxrelay.core;

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
 * Runs a shipped migration script (Flyway file names and {@code ${name}} placeholders) directly,
 * for applications without a migration tool. A statement ends with a semicolon at the end of a line
 * outside a dollar-quoted ({@code $$ ... $$}) body, so PostgreSQL functions stay whole; lines
 * starting with {@code --} are comments. Stateless and thread-safe.
 */
public final class SqlScript {
  private SqlScript() {}

  /**
   * Reads a classpath resource through {@code owner}'s class loader and replaces each {@code
   * ${key}} with its value.
   *
   * @param resource an absolute resource name, e.g. {@code /db/outbox/postgresql/V1__create.sql}
   * @throws IllegalStateException if the resource is missing
   */
  public static String load(Class<?> owner, String resource, Map<String, String> placeholders) {
    String sql = read(owner, resource);
    for (Map.Entry<String, String> p : placeholders.entrySet()) {
      sql = sql.replace("${" + p.getKey() + "}", p.getValue());
    }
    return sql;
  }

  /**
   * Runs each statement of the script in order on the connection; leaves its transaction state to
   * the caller (DDL auto-commits on MySQL/MariaDB).
   */
  public static void execute(Connection connection, String script) throws SQLException {
    try (Statement st = connection.createStatement()) {
      for (String sql : statements(script)) {
        st.execute(sql);
      }
    }
  }

  /** The statements of a script, without comment lines and trailing semicolons. */
  public static List<String> statements(String script) {
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

  private static String read(Class<?> owner, String resource) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("Missing resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
