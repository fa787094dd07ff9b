package dev.outboxrelay.core;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * SQL written as SQL: a statement's text with {@code {name}} placeholders for the table's
 * validated, quoted identifiers in one dialect. {@link #of} knows {@code {outbox}} (the qualified
 * table), one placeholder per {@link OutboxColumn}, its name in lower case ({@code {id}}, {@code
 * {aggregate_id}}, {@code {sequence}}, {@code {bucket}}, ...), {@code {published_at}} and {@code
 * {now}} ({@link SqlDialect#now}); {@link #withCompanions} adds companion tables and {@link #with}
 * fragments built from these. An unknown placeholder fails. Immutable, thread-safe.
 */
public final class SqlTemplate {
  private final OutboxTable table;
  private final SqlDialect dialect;
  private final Map<String, String> values;

  private SqlTemplate(OutboxTable table, SqlDialect dialect, Map<String, String> values) {
    this.table = table;
    this.dialect = dialect;
    this.values = Map.copyOf(values);
  }

  /** The table's names in {@code dialect}. */
  public static SqlTemplate of(OutboxTable table, SqlDialect dialect) {
    Map<String, String> values = new HashMap<>();
    values.put("outbox", table.qualifiedName(dialect));
    for (OutboxColumn c : OutboxColumn.values()) {
      values.put(c.name().toLowerCase(Locale.ROOT), table.quoted(dialect, c));
    }
    values.put("published_at", dialect.quote("published_at"));
    values.put("now", dialect.now());
    return new SqlTemplate(table, dialect, values);
  }

  /** Adds {@code {suffix}} for each companion table ({@link OutboxTable#qualifiedCompanion}). */
  public SqlTemplate withCompanions(String... suffixes) {
    SqlTemplate t = this;
    for (String suffix : suffixes) {
      t = t.with(suffix, table.qualifiedCompanion(dialect, suffix));
    }
    return t;
  }

  /**
   * Adds {@code {name}} for a fragment of SQL, itself expanded first; it must be built of validated
   * names and fixed text only, never of a value.
   */
  public SqlTemplate with(String name, String fragment) {
    Map<String, String> more = new HashMap<>(values);
    more.put(name, sql(fragment));
    return new SqlTemplate(table, dialect, more);
  }

  /**
   * The statement with every {@code {name}} replaced.
   *
   * @throws IllegalArgumentException naming a placeholder this template does not know, or an
   *     unclosed one
   */
  public String sql(String template) {
    StringBuilder out = new StringBuilder(template.length() + 64);
    int at = 0;
    for (int open = template.indexOf('{'); open >= 0; open = template.indexOf('{', at)) {
      int close = template.indexOf('}', open);
      String value = close < 0 ? null : values.get(template.substring(open + 1, close));
      if (value == null) {
        String name = close < 0 ? template.substring(open) : template.substring(open, close + 1);
        throw new IllegalArgumentException("Unknown SQL placeholder " + name + " in: " + template);
      }
      out.append(template, at, open).append(value);
      at = close + 1;
    }
    return out.append(template, at, template.length()).toString();
  }

  /** {@code n} parameter marks, {@code ?, ?, ...}. */
  public static String marks(int n) {
    return String.join(", ", java.util.Collections.nCopies(n, "?"));
  }
}
