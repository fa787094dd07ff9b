package dev.outboxrelay.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.relay.cdc.internal.debezium.CreatedAtConverter;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.UUID;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OutboxEventsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-12-03T12:27:33Z",
        "2026-12-03T12:27:33.1Z",
        "2026-12-03T12:27:33.123456Z",
        "2026-12-03T12:27:33.123456789Z",
        "1970-01-01T00:00:00Z",
        "2024-02-29T23:59:59.999999Z",
        "2026-12-03T12:27:33.123456+02:00",
        "2026-12-03T12:27:33+01:00"
      })
  void readsTimestampsAsTheIsoParserDoes(String s) {
    assertThat(OutboxEvents.instant(s)).isEqualTo(OffsetDateTime.parse(s).toInstant());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-02-30T12:27:33Z",
        "2026-12-03T25:27:33Z",
        "2026-12-03T12:27:3Z",
        "2026-12-03T12:27:33.1234567890Z"
      })
  void refusesWhatTheIsoParserRefuses(String s) {
    assertThatThrownBy(() -> OutboxEvents.instant(s)).isInstanceOf(DateTimeParseException.class);
  }

  @Test
  void anInsertsMessageCarriesTheConvertedCreationTimeAndEachSchemaIsReadAsItIs() {
    OutboxEvents events = new OutboxEvents(OutboxTable.defaults());
    Instant at = Instant.parse("2026-12-07T06:55:01.123456Z");
    Schema micros = SchemaBuilder.int64().name(CreatedAtConverter.SCHEMA_NAME).optional().build();
    Struct converted = row(micros, 1_796_626_501_123_456L, "k1", 7);
    OutboxMessage m = events.message(events.insertedRow(insert(converted)));
    assertThat(m.createdAt()).contains(at);
    assertThat(m.aggregateId()).isEqualTo("k1");
    assertThat(m.sequence()).hasValue(7);
    // A user's converters replaced ours: Debezium's string, in a schema of its own.
    Struct string = row(Schema.STRING_SCHEMA, "2026-12-07T06:55:01.123456Z", "k2", 8);
    m = events.message(events.insertedRow(insert(string)));
    assertThat(m.createdAt()).contains(at);
    assertThat(m.aggregateId()).isEqualTo("k2");
    assertThat(m.sequence()).hasValue(8);
    assertThat(events.message(events.insertedRow(insert(converted))).createdAt()).contains(at);
    assertThat(events.insertedRow(new SourceRecord(null, null, "t", null, null))).isNull();
  }

  private static Struct row(Schema createdAt, Object created, String key, long seq) {
    Schema schema =
        SchemaBuilder.struct()
            .field("id", Schema.STRING_SCHEMA)
            .field("aggregatetype", Schema.STRING_SCHEMA)
            .field("aggregateid", Schema.STRING_SCHEMA)
            .field("type", Schema.STRING_SCHEMA)
            .field("payload", Schema.BYTES_SCHEMA)
            .field("seq", Schema.INT64_SCHEMA)
            .field("created_at", createdAt)
            .build();
    return new Struct(schema)
        .put("id", UUID.randomUUID().toString())
        .put("aggregatetype", "order")
        .put("aggregateid", key)
        .put("type", "created")
        .put("payload", ByteBuffer.wrap(new byte[] {1}))
        .put("seq", seq)
        .put("created_at", created);
  }

  private static SourceRecord insert(Struct row) {
    Schema source = SchemaBuilder.struct().field("table", Schema.STRING_SCHEMA).build();
    Schema envelope =
        SchemaBuilder.struct()
            .field("op", Schema.STRING_SCHEMA)
            .field("source", source)
            .field("after", row.schema())
            .build();
    Struct value =
        new Struct(envelope)
            .put("op", "c")
            .put("source", new Struct(source).put("table", "outbox"))
            .put("after", row);
    return new SourceRecord(null, null, "t", envelope, value);
  }
}
