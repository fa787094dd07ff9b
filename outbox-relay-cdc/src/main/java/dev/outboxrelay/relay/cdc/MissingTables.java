package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.relay.cdc.internal.AccessDenied;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The relay's own tables beside the outbox (Debezium's stores', made as the source user; the
 * published log's, made through the relay's pool), created where missing.
 */
final class MissingTables {
  private MissingTables() {}

  /**
   * Creates those of {@code tables} (name to statement) that do not exist, so that a user without
   * CREATE works with tables made beforehand: {@code CREATE TABLE IF NOT EXISTS} asks for the
   * privilege before it looks.
   */
  static void create(Connection conn, Map<String, String> tables) throws SQLException {
    for (Map.Entry<String, String> t : tables.entrySet()) {
      if (!exists(conn, t.getKey())) {
        try (Statement st = conn.createStatement()) {
          st.execute(t.getValue());
        }
      }
    }
  }

  /** Whether {@code table} exists; one the user may not read exists too. */
  private static boolean exists(Connection conn, String table) throws SQLException {
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
