package dev.outboxrelay.core;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/** The SQL differences between the supported databases. */
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
