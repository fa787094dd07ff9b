package dev.outboxrelay.core.rows;

import dev.outboxrelay.core.OutboxMessage;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

/**
 * A pending outbox row a relay read: the message, or why it could not be read (a malformed row,
 * which parks its key instead of crashing the relay), and its {@code seq} ({@code -1} where the
 * reader did not read it: rows built from a CDC stream's change events).
 */
public record PendingRow(
    UUID id,
    String aggregateId,
    int bucket,
    OutboxMessage message,
    String malformed,
    long sequence) {

  /** A row whose {@code seq} was not read. */
  public PendingRow(
      UUID id, String aggregateId, int bucket, OutboxMessage message, String malformed) {
    this(id, aggregateId, bucket, message, malformed, -1);
  }

  /** Reads a row selected with {@link OutboxRows#selectList} followed by the bucket column. */
  public static PendingRow read(ResultSet rs) throws SQLException {
    UUID id = UUID.fromString(rs.getString(1));
    String key = rs.getString(3);
    long sequence = rs.getLong(8);
    int bucket = rs.getInt(10);
    try {
      return new PendingRow(id, key, bucket, OutboxRows.read(rs), null, sequence);
    } catch (RuntimeException e) {
      return new PendingRow(id, key, bucket, null, "malformed row: " + e.getMessage(), sequence);
    }
  }
}
