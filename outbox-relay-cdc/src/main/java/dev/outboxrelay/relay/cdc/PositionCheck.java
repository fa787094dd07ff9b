package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.cdc.internal.AccessDenied;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Before streaming: if a position is stored, the database must still be able to serve it (the
 * replication slot exists; the binlog file is not purged). Otherwise the relay refuses to start.
 */
final class PositionCheck {
  private static final Logger log = LoggerFactory.getLogger(PositionCheck.class);
  static final Set<String> NO_SUCH_TABLE = Set.of("42P01", "42S02");
  private static final Pattern BINLOG_FILE = Pattern.compile("\"file\"\\s*:\\s*\"([^\"]+)\"");

  private PositionCheck() {}

  static void verify(CdcRelayConfig c, CdcSql sql) throws SQLException {
    try (Connection conn = DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password())) {
      MissingTables.create(conn, sql.dialect, sql.storeTables());
      Optional<String> offset = storedOffset(conn, c, sql);
      if (sql.dialect == SqlDialect.POSTGRESQL) {
        try {
          insertsOnlyPublication(conn, c, sql);
        } catch (SQLException e) {
          if (!AccessDenied.is(e)) {
            throw e;
          }
          // A publication provisioned by its owner: it still works, at the cost of its deletes.
          log.warn(
              "{} - cannot make publication {} send INSERTs only ({}); Debezium then also"
                  + " receives and skips every delete of a published row",
              c.name(),
              c.slotName(),
              e.getMessage());
        }
      }
      if (offset.isEmpty()) {
        return;
      }
      if (sql.dialect == SqlDialect.POSTGRESQL) {
        if (!slotExists(conn, c.slotName())) {
          throw lost(c, "replication slot '" + c.slotName() + "' no longer exists");
        }
        return;
      }
      Matcher m = BINLOG_FILE.matcher(offset.get());
      if (m.find() && !binlogFiles(conn).contains(m.group(1))) {
        throw lost(c, "binlog file " + m.group(1) + " has been purged from the server");
      }
    }
  }

  static Optional<String> storedOffset(Connection conn, CdcRelayConfig c, CdcSql sql)
      throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT offset_val FROM " + sql.offsets + " WHERE offset_key LIKE ?")) {
      ps.setString(1, "%\"" + c.name() + "\"%");
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      if (NO_SUCH_TABLE.contains(e.getSQLState())) {
        return Optional.empty(); // a reset before the first start
      }
      throw e;
    }
  }

  /**
   * The publication Debezium streams (its {@code filtered} mode keeps the table list) publishes
   * INSERTs only: the relay publishes nothing else, and without this PostgreSQL would decode and
   * send every DELETE of a published row (or UPDATE, keeping rows) to Debezium, which converts each
   * before the relay drops it: as many events again as the messages themselves. An existing
   * publication that publishes more is altered.
   */
  private static void insertsOnlyPublication(Connection conn, CdcRelayConfig c, CdcSql sql)
      throws SQLException {
    String name = c.slotName(); // a validated identifier
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT pubupdate OR pubdelete OR pubtruncate FROM pg_publication WHERE pubname = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery();
          Statement st = conn.createStatement()) {
        if (!rs.next()) {
          st.execute(
              "CREATE PUBLICATION \""
                  + name
                  + "\" FOR TABLE "
                  + sql.outbox
                  + " WITH (publish = 'insert')");
        } else if (rs.getBoolean(1)) {
          st.execute("ALTER PUBLICATION \"" + name + "\" SET (publish = 'insert')");
        }
      }
    }
  }

  private static boolean slotExists(Connection conn, String slot) throws SQLException {
    try (PreparedStatement ps =
        conn.prepareStatement("SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
      ps.setString(1, slot);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static Set<String> binlogFiles(Connection conn) throws SQLException {
    Set<String> files = new HashSet<>();
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SHOW BINARY LOGS")) {
      while (rs.next()) {
        files.add(rs.getString(1));
      }
    }
    return files;
  }

  private static CdcPositionLostException lost(CdcRelayConfig c, String why) {
    return new CdcPositionLostException(
        c.name()
            + " cannot resume: its stored position in "
            + c.table().companionName("cdc_offsets")
            + " is gone ("
            + why
            + "). Refusing to start"
            + " rather than skip or re-snapshot. To reconcile: CdcRelay.resetPosition() (daemon:"
            + " 'reset-position'), then start; the relay first republishes every row still pending in"
            + " the outbox table, at least once, then streams from the current position.");
  }
}
