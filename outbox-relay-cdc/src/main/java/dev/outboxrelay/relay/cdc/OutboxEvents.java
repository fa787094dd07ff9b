package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.rows.HeadersJson;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/** Turns Debezium change events on the outbox table into messages. */
final class OutboxEvents {
  /** The aggregate type of the relays' fence rows (never published, never pending). */
  static final String FENCE_TYPE = "__outbox_relay_fence";

  private final OutboxTable table;

  OutboxEvents(OutboxTable table) {
    this.table = table;
  }

  /** The row of an INSERT on the outbox table, or {@code null} for anything else. */
  Struct insertedRow(SourceRecord record) {
    if (!(record.value() instanceof Struct envelope) || envelope.schema().field("op") == null) {
      return null;
    }
    Struct source = envelope.schema().field("source") == null ? null : envelope.getStruct("source");
    if (!"c".equals(envelope.getString("op"))
        || source == null
        || !table.name().equals(source.getString("table"))) {
      return null;
    }
    return envelope.getStruct("after");
  }

  /**
   * The message in a row.
   *
   * @throws RuntimeException if the row breaks the message rules (a malformed row)
   */
  OutboxMessage message(Struct row) {
    Object created = value(row, OutboxColumn.CREATED_AT);
    return OutboxMessage.builder()
        .id(UUID.fromString(String.valueOf(value(row, OutboxColumn.ID))))
        .aggregateType((String) value(row, OutboxColumn.AGGREGATE_TYPE))
        .aggregateId(aggregateId(row))
        .type((String) value(row, OutboxColumn.TYPE))
        .payload(bytes(value(row, OutboxColumn.PAYLOAD)))
        .headers(HeadersJson.decode((String) value(row, OutboxColumn.HEADERS)))
        .traceparent((String) value(row, OutboxColumn.TRACEPARENT))
        .sequence(((Number) value(row, OutboxColumn.SEQUENCE)).longValue())
        .createdAt(
            created instanceof String s ? OffsetDateTime.parse(s).toInstant() : Instant.now())
        .build();
  }

  /** Whether the row is a relay's fence (see {@link CdcStore#writeFence}). */
  boolean isFence(Struct row) {
    return FENCE_TYPE.equals(value(row, OutboxColumn.AGGREGATE_TYPE));
  }

  /** The row's sequence number, or -1 if it has none (a malformed row). */
  long seq(Struct row) {
    return value(row, OutboxColumn.SEQUENCE) instanceof Number n ? n.longValue() : -1;
  }

  /**
   * The writer's transaction id ({@code txid} column, PostgreSQL's table contract), or -1 where the
   * table has none.
   */
  long txid(Struct row) {
    Field f = row.schema().field("txid");
    return f != null && row.get(f) instanceof Number n ? n.longValue() : -1;
  }

  String aggregateId(Struct row) {
    return String.valueOf(value(row, OutboxColumn.AGGREGATE_ID));
  }

  UUID id(Struct row) {
    return UUID.fromString(String.valueOf(value(row, OutboxColumn.ID)));
  }

  private Object value(Struct row, OutboxColumn column) {
    Field f = row.schema().field(table.column(column));
    return f == null ? null : row.get(f);
  }

  private static byte[] bytes(Object v) {
    if (v instanceof ByteBuffer b) {
      ByteBuffer copy = b.duplicate();
      byte[] out = new byte[copy.remaining()];
      copy.get(out);
      return out;
    }
    return (byte[]) v;
  }
}
