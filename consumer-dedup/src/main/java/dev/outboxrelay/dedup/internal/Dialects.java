package dev.outboxrelay.dedup.internal;

import dev.outboxrelay.core.SqlDialect;

/** SQL fragments that differ per database; times always come from the database clock. */
public final class Dialects {
  private Dialects() {}

  /** {@code INSERT} that silently skips a row whose key exists (and waits for a racing insert). */
  public static String insertIgnore(SqlDialect dialect, String table, String columns, int params) {
    String values = "?" + ", ?".repeat(params - 1);
    return dialect == SqlDialect.POSTGRESQL
        ? "INSERT INTO "
            + table
            + " ("
            + columns
            + ") VALUES ("
            + values
            + ") ON CONFLICT DO NOTHING"
        : "INSERT IGNORE INTO " + table + " (" + columns + ") VALUES (" + values + ")";
  }

  /** The database's current time. */
  public static String now(SqlDialect dialect) {
    return dialect == SqlDialect.POSTGRESQL ? "clock_timestamp()" : "CURRENT_TIMESTAMP(6)";
  }

  /** The database's current time minus a bound number of microseconds (one {@code ?}). */
  public static String nowMinusMicros(SqlDialect dialect) {
    return dialect == SqlDialect.POSTGRESQL
        ? "(clock_timestamp() - CAST(? AS bigint) * INTERVAL '1 microsecond')"
        : "(CURRENT_TIMESTAMP(6) - INTERVAL ? MICROSECOND)";
  }

  /**
   * Deletes at most {@code ?} (second parameter) rows whose {@code timeColumn} is older than {@code
   * ?} microseconds (first parameter); {@code keyColumns} is the primary key.
   */
  public static String purgeBatch(
      SqlDialect dialect, String table, String keyColumns, String timeColumn) {
    if (dialect == SqlDialect.POSTGRESQL) {
      return "DELETE FROM "
          + table
          + " WHERE ("
          + keyColumns
          + ") IN (SELECT "
          + keyColumns
          + " FROM "
          + table
          + " WHERE "
          + timeColumn
          + " < "
          + nowMinusMicros(dialect)
          + " ORDER BY "
          + timeColumn
          + " LIMIT ?)";
    }
    return "DELETE FROM "
        + table
        + " WHERE "
        + timeColumn
        + " < "
        + nowMinusMicros(dialect)
        + " ORDER BY "
        + timeColumn
        + " LIMIT ?";
  }
}
