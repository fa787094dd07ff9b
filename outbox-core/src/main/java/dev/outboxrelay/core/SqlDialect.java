package dev.outboxrelay.core;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/**
 * The SQL differences between the supported databases: quoting, and the fragments and statement
 * shapes that are spelled differently on PostgreSQL and on MySQL/MariaDB. Every module builds its
 * per-database SQL from these, so each difference is written once. Fragments read the database
 * clock, never the JVM's. Identifiers passed in must already be validated and quoted (e.g. by
 * {@link #quote} or {@link OutboxTable#qualifiedName}); fragments are concatenated unchanged.
 */
public enum SqlDialect {
  POSTGRESQL('"', "postgresql"),
  /** MySQL 8; shares the MySQL DDL with MariaDB. */
  MYSQL('`', "mysql"),
  /** MariaDB 10.6+. */
  MARIADB('`', "mysql");

  private final char quote;
  private final String ddlFolder;

  SqlDialect(char quote, String ddlFolder) {
    this.quote = quote;
    this.ddlFolder = ddlFolder;
  }

  /** Quotes an identifier after validating it with {@link SqlIdentifier}. */
  public String quote(String identifier) {
    SqlIdentifier.require("identifier", identifier);
    return quote + identifier + quote;
  }

  /** The folder under {@code db/outbox/} that holds this database's migrations. */
  public String ddlFolder() {
    return ddlFolder;
  }

  /** Whether ids are stored as a native {@code uuid} (else as 36 characters of text). */
  public boolean nativeUuid() {
    return this == POSTGRESQL;
  }

  /**
   * The database's current time as the statement sees it: PostgreSQL {@code now()} (the start of
   * the transaction), MySQL/MariaDB {@code CURRENT_TIMESTAMP(6)} (the start of the statement).
   */
  public String now() {
    return postgres() ? "now()" : "CURRENT_TIMESTAMP(6)";
  }

  /**
   * The database's clock when the expression is evaluated: PostgreSQL {@code clock_timestamp()}
   * (advances within a transaction), MySQL/MariaDB {@code CURRENT_TIMESTAMP(6)}.
   */
  public String clockTimestamp() {
    return postgres() ? "clock_timestamp()" : "CURRENT_TIMESTAMP(6)";
  }

  /** {@link #now()} plus a bound number of milliseconds: one {@code ?} (a long), parenthesized. */
  public String nowPlusMillis() {
    return postgres()
        ? "(now() + ? * interval '1 millisecond')"
        : "(CURRENT_TIMESTAMP(6) + INTERVAL ? * 1000 MICROSECOND)";
  }

  /** {@link #now()} minus a bound number of milliseconds: one {@code ?} (a long), parenthesized. */
  public String nowMinusMillis() {
    return postgres()
        ? "(now() - ? * interval '1 millisecond')"
        : "(CURRENT_TIMESTAMP(6) - INTERVAL ? * 1000 MICROSECOND)";
  }

  /**
   * {@link #clockTimestamp()} minus a bound number of microseconds: one {@code ?} (a long),
   * parenthesized.
   */
  public String clockMinusMicros() {
    return postgres()
        ? "(clock_timestamp() - CAST(? AS bigint) * INTERVAL '1 microsecond')"
        : "(CURRENT_TIMESTAMP(6) - INTERVAL ? MICROSECOND)";
  }

  /**
   * The milliseconds from a timestamp expression to {@link #now()}, as a number (fractional on
   * PostgreSQL; NULL when the expression is NULL).
   */
  public String millisSince(String timestamp) {
    return postgres()
        ? "EXTRACT(EPOCH FROM (now() - " + timestamp + ")) * 1000"
        : "TIMESTAMPDIFF(MICROSECOND, " + timestamp + ", CURRENT_TIMESTAMP(6)) / 1000";
  }

  /**
   * An {@code INSERT} that skips a row whose unique key exists (waiting for a racing insert of the
   * same key to end first): PostgreSQL {@code ON CONFLICT DO NOTHING}, MySQL/MariaDB {@code INSERT
   * IGNORE} (which also turns other row errors, such as a too-long value, into warnings).
   *
   * @param table the quoted table
   * @param columnsAndSource e.g. {@code (a, b) VALUES (?, ?)} or {@code (a, b) SELECT ...}
   */
  public String insertIgnore(String table, String columnsAndSource) {
    return postgres()
        ? "INSERT INTO " + table + " " + columnsAndSource + " ON CONFLICT DO NOTHING"
        : "INSERT IGNORE INTO " + table + " " + columnsAndSource;
  }

  /**
   * An {@code INSERT} that updates the existing row instead when the key conflicts: PostgreSQL
   * {@code INSERT INTO t AS h ... ON CONFLICT (key) DO UPDATE SET ...}, MySQL/MariaDB {@code ... ON
   * DUPLICATE KEY UPDATE ...}. In {@code assignments} name the row's current value with {@link
   * #upsertExisting} and the value offered by the insert with {@link #upsertProposed}.
   *
   * @param conflictColumns the unique key, e.g. {@code a, b} (MySQL/MariaDB use any unique key)
   */
  public String upsert(
      String table, String columnsAndSource, String conflictColumns, String assignments) {
    return postgres()
        ? "INSERT INTO "
            + table
            + " AS h "
            + columnsAndSource
            + " ON CONFLICT ("
            + conflictColumns
            + ") DO UPDATE SET "
            + assignments
        : "INSERT INTO "
            + table
            + " "
            + columnsAndSource
            + " ON DUPLICATE KEY UPDATE "
            + assignments;
  }

  /** In an {@link #upsert}'s assignments: the existing row's column ({@code h.c} / {@code c}). */
  public String upsertExisting(String column) {
    return postgres() ? "h." + column : column;
  }

  /**
   * In an {@link #upsert}'s assignments: the inserted value ({@code EXCLUDED.c} / {@code
   * VALUES(c)}).
   */
  public String upsertProposed(String column) {
    return postgres() ? "EXCLUDED." + column : "VALUES(" + column + ")";
  }

  /**
   * Deletes at most {@code ?} (the last parameter) rows matching {@code condition}, oldest by
   * {@code orderBy} first when not empty. PostgreSQL has no {@code DELETE ... LIMIT}: it deletes by
   * {@code keyColumns} (the primary key) {@code IN} a limited sub-select.
   */
  public String deleteAtMost(String table, String keyColumns, String condition, String orderBy) {
    String order = orderBy.isEmpty() ? "" : " ORDER BY " + orderBy;
    return postgres()
        ? "DELETE FROM "
            + table
            + " WHERE ("
            + keyColumns
            + ") IN (SELECT "
            + keyColumns
            + " FROM "
            + table
            + " WHERE "
            + condition
            + order
            + " LIMIT ?)"
        : "DELETE FROM " + table + " WHERE " + condition + order + " LIMIT ?";
  }

  private boolean postgres() {
    return this == POSTGRESQL;
  }

  /**
   * The dialect of a connection, from its product name.
   *
   * @throws OutboxConfigException for an unsupported database
   */
  public static SqlDialect of(Connection connection) {
    try {
      return fromProductName(connection.getMetaData().getDatabaseProductName());
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not read the database product name", e);
    }
  }

  /**
   * The dialect for a JDBC product name such as {@code PostgreSQL}, {@code MySQL}, {@code MariaDB}.
   */
  public static SqlDialect fromProductName(String productName) {
    String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
    if (name.contains("postgres")) {
      return POSTGRESQL;
    }
    if (name.contains("mariadb")) {
      return MARIADB;
    }
    if (name.contains("mysql")) {
      return MYSQL;
    }
    throw new OutboxConfigException("dialect", productName, "must be PostgreSQL, MySQL or MariaDB");
  }
}
