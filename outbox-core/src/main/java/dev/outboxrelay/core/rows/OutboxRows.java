package dev.outboxrelay.core.rows;

import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_ID;
import static dev.outboxrelay.core.OutboxColumn.AGGREGATE_TYPE;
import static dev.outboxrelay.core.OutboxColumn.CREATED_AT;
import static dev.outboxrelay.core.OutboxColumn.HEADERS;
import static dev.outboxrelay.core.OutboxColumn.ID;
import static dev.outboxrelay.core.OutboxColumn.PAYLOAD;
import static dev.outboxrelay.core.OutboxColumn.SEQUENCE;
import static dev.outboxrelay.core.OutboxColumn.TRACEPARENT;
import static dev.outboxrelay.core.OutboxColumn.TYPE;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads outbox rows back into messages, for any table and dialect: the column list to select and
 * the mapping of one result-set row. Used by both relays, the operator tools and tests. Stateless,
 * thread-safe.
 */
public final class OutboxRows {
  private static final OutboxColumn[] READ = {
    ID, AGGREGATE_TYPE, AGGREGATE_ID, TYPE, PAYLOAD, HEADERS, TRACEPARENT, SEQUENCE, CREATED_AT
  };

  private OutboxRows() {}

  /** The quoted column list that {@link #read} expects, in order. */
  public static String selectList(OutboxTable table, SqlDialect dialect) {
    return Stream.of(READ).map(c -> table.quoted(dialect, c)).collect(Collectors.joining(", "));
  }

  /**
   * The message in the current row of a result set selected with {@link #selectList}.
   *
   * @throws dev.outboxrelay.core.InvalidMessageException if the row breaks the message rules
   */
  public static OutboxMessage read(ResultSet rs) throws SQLException {
    Timestamp created = rs.getTimestamp(9);
    return OutboxMessage.builder()
        .id(UUID.fromString(rs.getString(1)))
        .aggregateType(rs.getString(2))
        .aggregateId(rs.getString(3))
        .type(rs.getString(4))
        .payload(rs.getBytes(5))
        .headers(HeadersJson.decode(rs.getString(6)))
        .traceparent(rs.getString(7))
        .sequence(rs.getLong(8))
        .createdAt(created == null ? null : created.toInstant())
        .build();
  }
}
