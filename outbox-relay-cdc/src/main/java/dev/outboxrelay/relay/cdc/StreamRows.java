package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.rows.PendingRow;
import org.apache.kafka.connect.data.Struct;

/**
 * A streamed outbox INSERT as the engine's {@link PendingRow}: a row that cannot be read as a
 * message becomes a malformed row (it parks its key with the reason), never an exception that would
 * stop the stream.
 */
final class StreamRows {
  private StreamRows() {}

  static PendingRow of(OutboxEvents events, Struct row) {
    String key = events.aggregateId(row);
    int bucket = events.bucket(row);
    try {
      OutboxMessage m = events.message(row);
      return new PendingRow(m.id(), key, bucket, m, null);
    } catch (RuntimeException e) {
      return new PendingRow(events.id(row), key, bucket, null, "malformed row: " + e.getMessage());
    }
  }

  /**
   * Whether the writer ordered the row's key by its sequence (its key lock): then a key's rows
   * reach the stream in sequence order, and a later sequence proves the earlier ones went before.
   */
  static boolean keyOrdered(PendingRow row) {
    return row.message() != null
        && MessageContract.SEQUENCE_ORDER_KEY.equals(
            row.message().headers().get(MessageContract.HEADER_SEQUENCE_ORDER));
  }
}
