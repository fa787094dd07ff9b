package dev.outboxrelay.core;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The outbox table's name, optional schema and column names, all validated identifiers. Immutable.
 * Build with {@link #builder()}; {@link #defaults()} is table {@code outbox} with the default
 * column names of {@link OutboxColumn}.
 */
public final class OutboxTable {
  /** Number of key buckets; the database computes a row's bucket from its aggregateid. */
  public static final int BUCKETS = 256;

  private final String schema;
  private final String name;
  private final Map<OutboxColumn, String> columns;

  private OutboxTable(Builder b) {
    this.schema = b.schema;
    this.name = b.name;
    this.columns = new EnumMap<>(b.columns);
  }

  public static OutboxTable defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public String name() {
    return name;
  }

  public Optional<String> schema() {
    return Optional.ofNullable(schema);
  }

  /** The configured (unquoted) name of a column. */
  public String column(OutboxColumn column) {
    return columns.get(column);
  }

  /** Whether every column has its default name. */
  public boolean hasDefaultColumns() {
    return columns.entrySet().stream().allMatch(e -> e.getKey().defaultName().equals(e.getValue()));
  }

  /** The schema-qualified, quoted table name. */
  public String qualifiedName(SqlDialect dialect) {
    return schema == null ? dialect.quote(name) : dialect.quote(schema) + "." + dialect.quote(name);
  }

  /**
   * The schema-qualified, quoted name of a companion object of this table, named {@code
   * <table>_<suffix>} and shortened to fit the identifier limit: {@code lease} and {@code parked}
   * (the polling relay's tables), {@code bucket_seq} (the index).
   */
  public String qualifiedCompanion(SqlDialect dialect, String suffix) {
    String companion = companionName(suffix);
    return schema == null
        ? dialect.quote(companion)
        : dialect.quote(schema) + "." + dialect.quote(companion);
  }

  /** The unquoted name {@code <table>_<suffix>}, shortened to fit the identifier limit. */
  public String companionName(String suffix) {
    int room = SqlIdentifier.MAX_LENGTH - suffix.length() - 1;
    return (name.length() > room ? name.substring(0, room) : name) + "_" + suffix;
  }

  /**
   * The PostgreSQL LISTEN/NOTIFY channel of this table: its name in lower case. The writer passes
   * it to {@code pg_notify} as a string, which is taken verbatim; a relay must LISTEN on it as a
   * quoted identifier, since unquoted it is folded and may be a keyword ({@code LISTEN order}).
   */
  public String notifyChannel() {
    return name.toLowerCase(java.util.Locale.ROOT);
  }

  /** The quoted name of a column. */
  public String quoted(SqlDialect dialect, OutboxColumn column) {
    return dialect.quote(column(column));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OutboxTable t
        && Objects.equals(schema, t.schema)
        && name.equals(t.name)
        && columns.equals(t.columns);
  }

  @Override
  public int hashCode() {
    return Objects.hash(schema, name, columns);
  }

  @Override
  public String toString() {
    return schema == null ? name : schema + "." + name;
  }

  /** Validates each name as it is set. Not thread-safe. */
  public static final class Builder {
    private String schema;
    private String name = "outbox";
    private final Map<OutboxColumn, String> columns = new EnumMap<>(OutboxColumn.class);

    private Builder() {
      for (OutboxColumn c : OutboxColumn.values()) {
        columns.put(c, c.defaultName());
      }
    }

    /** Table name. Default: {@code outbox}. */
    public Builder name(String name) {
      this.name = SqlIdentifier.require("table", name);
      return this;
    }

    /** Schema (PostgreSQL) or database (MySQL). Default: the connection's current one. */
    public Builder schema(String schema) {
      this.schema = schema == null ? null : SqlIdentifier.require("schema", schema);
      return this;
    }

    /** Renames a column. Default: {@link OutboxColumn#defaultName()}. */
    public Builder column(OutboxColumn column, String name) {
      columns.put(
          Objects.requireNonNull(column, "column"),
          SqlIdentifier.require("columns." + column.defaultName(), name));
      return this;
    }

    public OutboxTable build() {
      return new OutboxTable(this);
    }
  }
}
