package dev.outboxrelay.rocketmqtx;

import static org.apache.rocketmq.client.producer.LocalTransactionState.COMMIT_MESSAGE;
import static org.apache.rocketmq.client.producer.LocalTransactionState.ROLLBACK_MESSAGE;
import static org.apache.rocketmq.client.producer.LocalTransactionState.UNKNOW;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.apache.rocketmq.client.producer.LocalTransactionState;

/**
 * The answer to a check-back, from the outbox table and the message's properties only, so that any
 * producer of the group gives the same one. The row is saved before the half message is sent, so at
 * any check the local transaction is running, committed or rolled back:
 *
 * <ul>
 *   <li>PostgreSQL: the message carries the transaction's {@code txid_current()} ({@value
 *       #TXID_PROPERTY}); {@code txid_status} says {@code in progress} (UNKNOW), {@code committed}
 *       (COMMIT) or {@code aborted} (ROLLBACK). When the status is gone (NULL: older than the
 *       commit log kept), the transaction is long over and the row decides.
 *   <li>MySQL/MariaDB: a shared-lock read of the row by id, {@code NOWAIT}. The running transaction
 *       holds its inserted row locked, so the read fails at once (UNKNOW); after a commit it finds
 *       the row (COMMIT), after a rollback nothing (ROLLBACK).
 * </ul>
 *
 * A row that is gone although its transaction committed was published by a relay and deleted: the
 * answer ROLLBACK then drops only the second copy (see the README). Any SQL failure answers UNKNOW:
 * the broker asks again.
 */
final class TransactionStatus {
  /** The user property with the PostgreSQL transaction id. */
  static final String TXID_PROPERTY = "outbox-txid";

  private final OutboxTable table;

  TransactionStatus(OutboxTable table) {
    this.table = table;
  }

  /** PostgreSQL: the running transaction's id, for {@link #TXID_PROPERTY}; else null. */
  String marker(Connection c, SqlDialect dialect) throws SQLException {
    if (dialect != SqlDialect.POSTGRESQL) {
      return null;
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT txid_current()");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return Long.toString(rs.getLong(1));
    }
  }

  LocalTransactionState answer(Connection c, SqlDialect dialect, UUID id, String txid)
      throws SQLException {
    if (dialect == SqlDialect.POSTGRESQL) {
      return postgres(c, id, txid);
    }
    int isolation = c.getTransactionIsolation();
    boolean autoCommit = c.getAutoCommit();
    // READ COMMITTED: the locking read of an absent id takes no gap lock that could hold writers.
    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    c.setAutoCommit(true);
    try {
      return rowExists(c, dialect, id, lockingRead(dialect)) ? COMMIT_MESSAGE : ROLLBACK_MESSAGE;
    } finally {
      c.setAutoCommit(autoCommit);
      c.setTransactionIsolation(isolation);
    }
  }

  private LocalTransactionState postgres(Connection c, UUID id, String txid) throws SQLException {
    long xid;
    try {
      xid = Long.parseLong(txid);
    } catch (NumberFormatException | NullPointerException e) {
      throw new IllegalArgumentException(
          TXID_PROPERTY + " must be a PostgreSQL transaction id, but was " + txid);
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT txid_status(?)")) {
      ps.setLong(1, xid);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        String status = rs.getString(1);
        if (status == null) {
          return rowExists(c, SqlDialect.POSTGRESQL, id, "") ? COMMIT_MESSAGE : ROLLBACK_MESSAGE;
        }
        return switch (status) {
          case "committed" -> COMMIT_MESSAGE;
          case "aborted" -> ROLLBACK_MESSAGE;
          default -> UNKNOW;
        };
      }
    }
  }

  private static String lockingRead(SqlDialect dialect) {
    // MySQL 8 has NOWAIT only with FOR SHARE; MariaDB only with LOCK IN SHARE MODE.
    return dialect == SqlDialect.MYSQL ? " FOR SHARE NOWAIT" : " LOCK IN SHARE MODE NOWAIT";
  }

  private boolean rowExists(Connection c, SqlDialect dialect, UUID id, String lock)
      throws SQLException {
    String sql =
        "SELECT 1 FROM "
            + table.qualifiedName(dialect)
            + " WHERE "
            + table.quoted(dialect, OutboxColumn.ID)
            + " = ?"
            + lock;
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      if (dialect.nativeUuid()) {
        ps.setObject(1, id);
      } else {
        ps.setString(1, id.toString());
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }
}
