package dev.outboxrelay.writer;

import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_ID;
import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_TYPE;
import static dev.outboxrelay.core.OutboxColumn.HEADERS;
import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.PAYLOAD;
import static dev.outboxrelay.core.OutboxColumn.TRACEPARENT;
import static dev.outboxrelay.core.OutboxColumn.TYPE;

import dev.outboxrelay.core.InvalidMessageException;
import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.MessageLimits;
import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.OutboxException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.rows.HeadersJson;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

final class JdbcOutbox implements Outbox {
  private static final Logger log = LoggerFactory.getLogger(JdbcOutbox.class);

  private final OutboxTable table;
  private final SqlDialect fixedDialect;
  private final int maxPayloadBytes;
  private final boolean requireTransaction;
  private final KeyLocks keyLocks;
  private final WakeUp wakeUp;
  private final String postgresInsert;
  private final String postgresInsertManyKeys;
  private final Map<SqlDialect, MySqlInserts> mysqlInserts = new EnumMap<>(SqlDialect.class);

  JdbcOutbox(OutboxBuilder b) {
    this.table = b.table;
    this.fixedDialect = b.dialect;
    this.maxPayloadBytes = b.maxPayloadBytes;
    this.requireTransaction = b.requireTransaction;
    this.keyLocks = b.keyOrder ? new KeyLocks(table) : null;
    this.wakeUp = b.wakeUpInterval.isZero() ? null : new WakeUp(table, b.wakeUpInterval);
    String columns = columns(SqlDialect.POSTGRESQL);
    this.postgresInsert =
        keyLocks != null
            ? keyLocks.lockingInsert(columns, 7, false)
            : insertInto(SqlDialect.POSTGRESQL, columns) + "(?, ?, ?, ?, ?, ?, ?)";
    this.postgresInsertManyKeys =
        keyLocks != null ? keyLocks.lockingInsert(columns, 7, true) : postgresInsert;
    for (SqlDialect d : List.of(SqlDialect.MYSQL, SqlDialect.MARIADB)) {
      mysqlInserts.put(d, new MySqlInserts(insertInto(d, columns(d))));
    }
  }

  @Override
  public void saveAll(Connection connection, Collection<OutboxMessage> given) {
    Collection<OutboxMessage> messages = TraceStamp.stamp(given);
    messages.forEach(this::validate);
    if (messages.isEmpty()) {
      return;
    }
    try {
      if (requireTransaction && connection.getAutoCommit()) {
        throw new OutboxException(
            "Outbox.save needs the caller's transaction, but the connection is in auto-commit"
                + " mode; call setAutoCommit(false) or build with requireTransaction(false)");
      }
      SqlDialect dialect = fixedDialect != null ? fixedDialect : SqlDialect.of(connection);
      insert(connection, dialect, messages);
    } catch (SQLException e) {
      throw new OutboxDatabaseException("Could not insert into outbox table " + table, e);
    }
    log.debug("Saved {} outbox message(s) into {}", messages.size(), table);
  }

  @Override
  public OutboxBuffer buffer() {
    return new OutboxBuffer(this, this::validate);
  }

  private void validate(OutboxMessage message) {
    if (message == null) {
      throw new InvalidMessageException("message", "must not be null");
    }
    if (message.payloadSize() > maxPayloadBytes) {
      throw new InvalidMessageException(
          "payload",
          "must be at most " + maxPayloadBytes + " bytes, but was " + message.payloadSize());
    }
    int headersBytes = MessageLimits.headersBytes(message.headers());
    if (headersBytes > MessageLimits.MAX_HEADERS_BYTES) {
      throw new InvalidMessageException(
          "headers",
          "must take at most "
              + MessageLimits.MAX_HEADERS_BYTES
              + " bytes (UTF-8 names and values, "
              + MessageLimits.HEADER_FRAMING_BYTES
              + " more per header), but took "
              + headersBytes);
    }
  }

  private void insert(Connection c, SqlDialect dialect, Collection<OutboxMessage> messages)
      throws SQLException {
    if (keyLocks != null && dialect != SqlDialect.POSTGRESQL && c.getAutoCommit()) {
      // MySQL/MariaDB lock in a statement of their own: in auto-commit mode (requireTransaction
      // off) that statement would commit and release the lock before the insert, and same-key
      // saves could commit out of seq order while their rows promise key order. A transaction of
      // its own keeps lock and rows together.
      c.setAutoCommit(false);
      try {
        lockAndInsert(c, dialect, messages);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
      return;
    }
    lockAndInsert(c, dialect, messages);
    if (wakeUp != null && dialect == SqlDialect.POSTGRESQL) {
      wakeUp.maybeNotify(c);
    }
  }

  private void lockAndInsert(Connection c, SqlDialect dialect, Collection<OutboxMessage> messages)
      throws SQLException {
    if (dialect != SqlDialect.POSTGRESQL) {
      // One statement batch: the slot lock first, then the rows (one round trip where the driver
      // pipelines a batch, as MariaDB Connector/J does).
      try (Statement st = c.createStatement()) {
        if (keyLocks != null) {
          st.addBatch(keyLocks.slotLock(dialect, messages));
        }
        for (String sql : mysqlInserts.get(dialect).statements(messages, this::headers)) {
          st.addBatch(sql);
        }
        st.executeBatch();
      }
      return;
    }
    // With key order the first parameter of each row is what it locks: its own key, or with
    // several keys in the batch all of them for the first row and none after (KeyLocks). In
    // auto-commit mode each statement commits and releases its locks, so each locks its own key.
    int p = keyLocks != null ? 1 : 0;
    String[] manyKeys = p == 1 && !c.getAutoCommit() ? KeyLocks.keys(messages) : null;
    String[] none = {};
    try (PreparedStatement ps =
        c.prepareStatement(manyKeys != null ? postgresInsertManyKeys : postgresInsert)) {
      for (OutboxMessage m : messages) {
        if (manyKeys != null) {
          ps.setArray(1, c.createArrayOf("text", manyKeys));
          manyKeys = none;
        } else if (p == 1) {
          ps.setString(1, m.aggregateId());
        }
        ps.setObject(p + 1, m.id());
        ps.setString(p + 2, m.aggregateType());
        ps.setString(p + 3, m.aggregateId());
        ps.setString(p + 4, m.type());
        ps.setBytes(p + 5, m.payload());
        ps.setString(p + 6, HeadersJson.encode(headers(m)));
        ps.setString(p + 7, m.traceparent().orElse(null));
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * The row's headers: the order marker set with key order, removed without (a message copied from
   * another row must not promise an order this writer does not keep).
   */
  private Map<String, String> headers(OutboxMessage m) {
    Map<String, String> h = new LinkedHashMap<>(m.headers());
    if (keyLocks == null) {
      h.remove(MessageContract.HEADER_SEQUENCE_ORDER);
    } else {
      h.put(MessageContract.HEADER_SEQUENCE_ORDER, MessageContract.SEQUENCE_ORDER_KEY);
    }
    return h;
  }

  private String columns(SqlDialect d) {
    return Stream.of(ID, AGGREGATE_TYPE, AGGREGATE_ID, TYPE, PAYLOAD, HEADERS, TRACEPARENT)
        .map(c -> table.quoted(d, c))
        .collect(Collectors.joining(", "));
  }

  private String insertInto(SqlDialect d, String columns) {
    return "INSERT INTO " + table.qualifiedName(d) + " (" + columns + ") VALUES ";
  }

  @Override
  public OutboxTable table() {
    return table;
  }

  @Override
  public Optional<SqlDialect> dialect() {
    return Optional.ofNullable(fixedDialect);
  }
}
