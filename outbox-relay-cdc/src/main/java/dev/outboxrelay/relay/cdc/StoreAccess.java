package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.cdc.internal.AccessDenied;
import dev.outboxrelay.relay.cdc.internal.debezium.StoreStatements;
import dev.outboxrelay.relay.cdc.internal.debezium.StoreStatements.Probe;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

/**
 * Before streaming: the source user can write what Debezium's stores write as that user (the
 * positions with the published log; on MySQL/MariaDB the schema history).
 *
 * <p>Invariant: a relay whose source user cannot write a table its stores write does not start;
 * {@link #verify} throws a {@link CdcStartException} that names the table, the user and the grant.
 * Otherwise a relay whose user may only read the outbox would publish every row and never store a
 * position, and read as active while a PostgreSQL slot holds back its WAL or a binlog is purged
 * past its position.
 *
 * <p>The check runs each statement the stores run ({@link StoreStatements}), once, in a transaction
 * it rolls back: a row inserted and never committed (so a sequence's or an auto-increment's value
 * is spent), deletes and reads of no row. A store any of whose settings the user gave in {@link
 * CdcRelayBuilder#debeziumProperties} (its class, URL, credentials, table) is not checked.
 */
final class StoreAccess {
  private static final int LOCK_WAIT_SECONDS = 10;

  private StoreAccess() {}

  /**
   * @throws CdcStartException naming the table and the user, when the user lacks a privilege
   * @throws SQLException when the database fails otherwise
   */
  static void verify(CdcRelayConfig c, CdcSql sql, Properties engine) throws SQLException {
    List<Probe> probes = probes(c, sql, engine);
    if (probes.isEmpty()) {
      return;
    }
    try (Connection conn = DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password())) {
      conn.setAutoCommit(false);
      try {
        waitForLocksAtMost(conn, sql, LOCK_WAIT_SECONDS);
        for (Probe p : probes) {
          try (PreparedStatement ps = conn.prepareStatement(p.statement())) {
            for (int i = 0; i < p.parameters().size(); i++) {
              ps.setObject(i + 1, p.parameters().get(i));
            }
            ps.execute();
          } catch (SQLException e) {
            if (AccessDenied.is(e)) {
              throw refused(c, p.withPrivileges(privileges(conn, c, sql, p)), e);
            }
            throw e;
          }
        }
      } finally {
        conn.rollback();
      }
    }
  }

  /**
   * The check runs holding the source lock: a table locked by a DDL, or rows by a session that
   * hung, fail it after this long instead of holding the start (and {@code close()}) for good.
   */
  private static void waitForLocksAtMost(Connection conn, CdcSql sql, int seconds)
      throws SQLException {
    try (Statement st = conn.createStatement()) {
      if (sql.dialect == SqlDialect.POSTGRESQL) {
        st.execute("SET LOCAL lock_timeout = '" + seconds + "s'");
      } else {
        st.execute(
            "SET SESSION innodb_lock_wait_timeout = "
                + seconds
                + ", lock_wait_timeout = "
                + seconds);
      }
    }
  }

  /** The statements the stores of this engine run as the source user; none for replaced stores. */
  private static List<Probe> probes(CdcRelayConfig c, CdcSql sql, Properties engine) {
    return StoreStatements.probes(
        new StoreStatements.Tables(sql.offsets, sql.published, sql.logPublished(), sql.history),
        sql.dialect,
        engine,
        c.debezium());
  }

  /**
   * The privileges a refused probe names. PostgreSQL's published log draws its batch numbers from a
   * sequence: named as the database names it ({@code pg_get_serial_sequence}: a long table name is
   * truncated its own way, and a table made beforehand may use an identity column), or after the
   * table if the database cannot tell.
   */
  private static String privileges(Connection conn, CdcRelayConfig c, CdcSql sql, Probe p) {
    if (sql.dialect != SqlDialect.POSTGRESQL || !p.table().equals(sql.published)) {
      return p.privileges();
    }
    String sequence = null;
    try {
      conn.rollback(); // the refused statement aborted the transaction; read on the same connection
      try (PreparedStatement ps =
          conn.prepareStatement("SELECT pg_get_serial_sequence(?, 'batch')")) {
        ps.setString(1, sql.published);
        try (java.sql.ResultSet rs = ps.executeQuery()) {
          sequence = rs.next() ? rs.getString(1) : null;
        }
      }
    } catch (SQLException e) {
      // the refusal is what matters: the name below
    }
    return p.privileges()
        + " (and USAGE on its sequence "
        + (sequence != null ? sequence : c.table().companionName("cdc_published_batch_seq"))
        + ")";
  }

  private static CdcStartException refused(CdcRelayConfig c, Probe p, SQLException e) {
    return new CdcStartException(
        c.name()
            + " - the source user '"
            + c.user()
            + "' cannot write "
            + p.table()
            + " ("
            + Secrets.maskText(e.getMessage())
            + "). Debezium's stores connect as that user and write "
            + p.what()
            + " there; grant it "
            + p.privileges()
            + " on "
            + p.table()
            + " (outbox-relay-cdc README, \"Privileges\").");
  }
}
