package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxColumn;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.rows.HeadersJson;
import dev.outboxrelay.relay.cdc.internal.debezium.CreatedAtConverter;
import io.debezium.engine.RecordChangeEvent;
import java.nio.ByteBuffer;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/** Turns Debezium change events on the outbox table into messages. */
final class OutboxEvents {
  /** The aggregate type of the relays' fence rows (never published, never pending). */
  static final String FENCE_TYPE = "__outbox_relay_fence";

  private final OutboxTable table;
  // Immutable, so a racing reader sees a whole one or none (see envelopeFields).
  private EnvelopeFields envelope;
  private RowFields row;

  OutboxEvents(OutboxTable table) {
    this.table = table;
  }

  /** The row of an INSERT on the outbox table, or {@code null} for anything else. */
  Struct insertedRow(SourceRecord record) {
    if (!(record.value() instanceof Struct envelope)) {
      return null;
    }
    EnvelopeFields f = envelopeFields(envelope.schema());
    if (f.op == null || f.source == null || f.after == null || !"c".equals(envelope.get(f.op))) {
      return null;
    }
    Struct source = (Struct) envelope.get(f.source);
    if (source == null || !table.name().equals(source.get("table"))) {
      return null;
    }
    return (Struct) envelope.get(f.after);
  }

  /**
   * The envelope's fields, looked up once per schema (the stream's records share it until the table
   * changes): each lookup by name is a hash lookup, and a row took about twenty of them.
   */
  private EnvelopeFields envelopeFields(Schema schema) {
    EnvelopeFields f = envelope;
    if (f == null || f.schema != schema) {
      f =
          new EnvelopeFields(
              schema, schema.field("op"), schema.field("source"), schema.field("after"));
      envelope = f;
    }
    return f;
  }

  private record EnvelopeFields(Schema schema, Field op, Field source, Field after) {}

  /** A row's fields by outbox column, looked up once per schema (see {@link #envelopeFields}). */
  private Field[] rowFields(Schema schema) {
    RowFields f = row;
    if (f == null || f.schema != schema) {
      OutboxColumn[] columns = OutboxColumn.values();
      Field[] fields = new Field[columns.length];
      for (OutboxColumn c : columns) {
        fields[c.ordinal()] = schema.field(table.column(c));
      }
      f = new RowFields(schema, fields);
      row = f;
    }
    return f.fields;
  }

  private record RowFields(Schema schema, Field[] fields) {}

  /**
   * When the change happened in the database, by the source's clock ({@code source.ts_ms}: the
   * commit on PostgreSQL, the binlog event, in whole seconds, on MySQL/MariaDB), or -1.
   */
  static long sourceMillis(SourceRecord record) {
    if (record.value() instanceof Struct envelope && envelope.schema().field("source") != null) {
      Struct source = envelope.getStruct("source");
      if (source != null && source.schema().field("ts_ms") != null) {
        Long ts = source.getInt64("ts_ms");
        return ts == null ? -1 : ts;
      }
    }
    return -1;
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
        .createdAt(createdAt(row, created))
        .build();
  }

  /**
   * The creation time: epoch microseconds from {@link CreatedAtConverter}, or Debezium's own string
   * where a user's converters replaced it; now if the row has none.
   */
  private Instant createdAt(Struct row, Object created) {
    if (created instanceof Long micros
        && CreatedAtConverter.SCHEMA_NAME.equals(
            rowFields(row.schema())[OutboxColumn.CREATED_AT.ordinal()].schema().name())) {
      return CreatedAtConverter.instant(micros);
    }
    return created instanceof String s ? instant(s) : Instant.now();
  }

  /**
   * A timestamp as Debezium renders it ({@code ZonedTimestamp}: ISO-8601 in UTC, such as {@code
   * 2026-12-03T12:27:33.123456Z}), read without {@link java.time.format.DateTimeFormatter}, whose
   * parsing is most of the relay thread's time per row in a profile (docs/benchmarks.md, "The
   * binlog reader's per-row work"); any other form through {@link OffsetDateTime#parse}.
   */
  static Instant instant(String s) {
    int n = s.length();
    if (n >= 20
        && n <= 30
        && n != 21
        && s.charAt(4) == '-'
        && s.charAt(7) == '-'
        && s.charAt(10) == 'T'
        && s.charAt(13) == ':'
        && s.charAt(16) == ':'
        && s.charAt(n - 1) == 'Z'
        && (n == 20 || s.charAt(19) == '.')) {
      try {
        LocalDate date = LocalDate.of(digits(s, 0, 4), digits(s, 5, 7), digits(s, 8, 10));
        LocalTime time = LocalTime.of(digits(s, 11, 13), digits(s, 14, 16), digits(s, 17, 19));
        int nanos = 0;
        if (n > 20) {
          nanos = digits(s, 20, n - 1);
          for (int i = n - 1 - 20; i < 9; i++) {
            nanos *= 10;
          }
        }
        return Instant.ofEpochSecond(date.toEpochDay() * 86_400 + time.toSecondOfDay(), nanos);
      } catch (NumberFormatException | DateTimeException e) {
        // not this form after all
      }
    }
    return OffsetDateTime.parse(s).toInstant();
  }

  /** The decimal digits of s[from, to); no sign allowed. */
  private static int digits(String s, int from, int to) {
    if (s.charAt(from) == '+' || s.charAt(from) == '-') {
      throw new NumberFormatException(s);
    }
    return Integer.parseInt(s, from, to, 10);
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

  /** The row's key bucket, or 0 where the table has none. */
  int bucket(Struct row) {
    return value(row, OutboxColumn.BUCKET) instanceof Number n ? n.intValue() : 0;
  }

  String aggregateId(Struct row) {
    return String.valueOf(value(row, OutboxColumn.AGGREGATE_ID));
  }

  UUID id(Struct row) {
    return UUID.fromString(String.valueOf(value(row, OutboxColumn.ID)));
  }

  private Object value(Struct row, OutboxColumn column) {
    Field f = rowFields(row.schema())[column.ordinal()];
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

  /** When the batch's newest change happened (the source's clock), or -1. */
  static long newestChange(List<RecordChangeEvent<SourceRecord>> records) {
    long changed = -1;
    for (int i = records.size() - 1; i >= 0 && changed < 0; i--) {
      changed = sourceMillis(records.get(i).record());
    }
    return changed;
  }
}
