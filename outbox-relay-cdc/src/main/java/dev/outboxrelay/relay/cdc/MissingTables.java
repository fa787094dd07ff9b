package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.cdc.internal.AccessDenied;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The relay's own tables beside the outbox (Debezium's stores', made as the source user; the
 * published log's, made through the relay's pool), created where missing. Looking does not fail a
 * statement on MySQL/MariaDB, whose driver logs every error reply at WARN.
 */
final class MissingTables {
  private MissingTables() {}

  /**
   * Creates those of {@code tables} (quoted, possibly schema-qualified name to statement) that do
   * not exist, so that a user without CREATE works with tables made beforehand: {@code CREATE TABLE
   * IF NOT EXISTS} asks for the privilege before it looks.
   */
  static void create(Connection conn, SqlDialect dialect, Map<String, String> tables)
      throws SQLException {
    for (Map.Entry<String, String> t : tables.entrySet()) {
      if (!exists(conn, dialect, t.getKey())) {
        try (Statement st = conn.createStatement()) {
          st.execute(t.getValue());
        }
      }
    }
  }

  /**
   * Whether {@code table} exists. PostgreSQL: one the user may not read exists too. MySQL/MariaDB:
   * as {@code information_schema} lists it, which shows a user only the tables it has a privilege
   * on; creating one it has none on fails, naming the table.
   */
  private static boolean exists(Connection conn, SqlDialect dialect, String table)
      throws SQLException {
    if (dialect == SqlDialect.POSTGRESQL) {
      return probe(conn, table);
    }
    // Validated identifiers, quoted with backticks: a dot separates the schema from the name.
    String[] parts = table.replace("`", "").split("\\.");
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT 1 FROM information_schema.tables"
                + " WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?")) {
      ps.setString(1, parts.length == 2 ? parts[0] : null);
      ps.setString(2, parts[parts.length - 1]);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static boolean probe(Connection conn, String table) throws SQLException {
    try (Statement st = conn.createStatement()) {
      st.executeQuery("SELECT 1 FROM " + table + " WHERE 1=0").close();
      return true;
    } catch (SQLException e) {
      if (PositionCheck.NO_SUCH_TABLE.contains(e.getSQLState())) {
        return false;
      }
      if (AccessDenied.is(e)) {
        return true;
      }
      throw e;
    }
  }
}
