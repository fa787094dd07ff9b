package dev.outboxrelay.relay.polling;

import static dev.outboxrelay.core.OutboxColumn.ID;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operator actions on a polling-relay table: inspect, unpark, discard and replay. Safe while relays
 * run: a relay picks an unparked key up at its next claim, in order. Thread-safe.
 */
public final class OutboxAdmin {
  private static final Logger log = LoggerFactory.getLogger(OutboxAdmin.class);

  private final DataSource dataSource;
  private final OutboxTable table;

  private OutboxAdmin(DataSource dataSource, OutboxTable table) {
    this.dataSource = dataSource;
    this.table = table;
  }

  public static OutboxAdmin of(DataSource dataSource, OutboxTable table) {
    return new OutboxAdmin(dataSource, table);
  }

  /** The parked keys, oldest first. */
  public List<ParkedKey> parked() {
    return run(
        sql -> {
          List<ParkedKey> keys = new ArrayList<>();
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT aggregateid, message_id, bucket, reason,"
                          + " parked_at FROM "
                          + sql.parked
                          + " ORDER BY parked_at, aggregateid");
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              keys.add(
                  new ParkedKey(
                      rs.getString(1),
                      UUID.fromString(rs.getString(2)),
                      rs.getInt(3),
                      rs.getString(4),
                      rs.getTimestamp(5).toInstant()));
            }
          }
          return keys;
        });
  }

  /** Lets a parked key flow again from the message it stopped at (e.g. after raising a limit). */
  public boolean unpark(String aggregateId) {
    boolean done =
        run(
                sql -> {
                  try (Connection c = dataSource.getConnection()) {
                    return exec(
                        c, "DELETE FROM " + sql.parked + " WHERE aggregateid = ?", aggregateId);
                  }
                })
            == 1;
    log.info(
        "Unparked key {}: {}",
        aggregateId,
        done ? "resumes at its parked message" : "was not parked");
    return done;
  }

  /**
   * Drops the message a key is parked at without sending it (it is deleted from the outbox, or
   * marked published when rows are kept), then unparks the key.
   */
  public boolean discardParked(String aggregateId, Retention retention) {
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            String drop =
                retention.keepsRows()
                    ? "UPDATE "
                        + sql.outbox
                        + " SET "
                        + sql.published()
                        + " = "
                        + sql.now()
                        + " WHERE "
                    : "DELETE FROM " + sql.outbox + " WHERE ";
            int dropped =
                exec(
                    c,
                    drop
                        + sql.col(ID)
                        + " = (SELECT message_id FROM "
                        + sql.parked
                        + " WHERE aggregateid = ?)",
                    aggregateId);
            int unparked =
                exec(c, "DELETE FROM " + sql.parked + " WHERE aggregateid = ?", aggregateId);
            c.commit();
            log.warn(
                "Discarded the parked message of key {} ({} row) and unparked it",
                aggregateId,
                dropped);
            return unparked == 1;
          }
        });
  }

  /**
   * Publishes a kept message again (retention {@code keepFor}); it goes out before the key's
   * pending messages, so per-key order of first deliveries is kept. Returns false if the row is
   * gone.
   */
  public boolean replay(UUID messageId) {
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "UPDATE "
                          + sql.outbox
                          + " SET "
                          + sql.published()
                          + " = NULL WHERE "
                          + sql.col(ID)
                          + " = ?")) {
            sql.setId(ps, 1, messageId);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /** Rows not yet published. */
  public long pendingCount() {
    return run(
        sql -> {
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "SELECT COUNT(*) FROM "
                          + sql.outbox
                          + " WHERE "
                          + sql.published()
                          + " IS NULL");
              ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
          }
        });
  }

  private static int exec(Connection c, String statement, String key) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(statement)) {
      ps.setString(1, key);
      return ps.executeUpdate();
    }
  }

  private interface SqlWork<T> {
    T run(RelaySql sql) throws SQLException;
  }

  private <T> T run(SqlWork<T> work) {
    try {
      SqlDialect dialect;
      try (Connection c = dataSource.getConnection()) {
        dialect = SqlDialect.of(c);
      }
      return work.run(new RelaySql(table, dialect));
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Outbox admin action on " + table + " failed", e);
    }
  }
}
