package dev.outboxrelay.relay.cdc.internal;

import java.sql.SQLException;
import java.util.Set;

/** Whether the database refused a statement for want of a privilege: retrying does not help. */
public final class AccessDenied {
  private static final String INSUFFICIENT_PRIVILEGE = "42501"; // PostgreSQL
  // MySQL/MariaDB: ER_TABLEACCESS_DENIED_ERROR, ER_COLUMNACCESS_DENIED_ERROR (SQLState 42000, which
  // syntax errors share).
  private static final Set<Integer> TABLE_OR_COLUMN_DENIED = Set.of(1142, 1143);

  private AccessDenied() {}

  public static boolean is(SQLException e) {
    return INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())
        || TABLE_OR_COLUMN_DENIED.contains(e.getErrorCode());
  }
}
