package dev.outboxrelay.relay.cdc.internal.debezium;

import static org.assertj.core.api.Assertions.assertThat;

import io.debezium.spi.converter.RelationalColumn;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.junit.jupiter.api.Test;

class CreatedAtConverterTest {
  private static final Instant AT = Instant.parse("2026-12-07T06:55:01.123456Z");
  private static final long MICROS = 1_796_626_501_123_456L;

  @Test
  void eachDriversInstantBecomesEpochMicroseconds() {
    assertThat(AT.getEpochSecond() * 1_000_000 + AT.getNano() / 1000).isEqualTo(MICROS);
    assertThat(CreatedAtConverter.micros(AT.atZone(ZoneOffset.UTC))).isEqualTo(MICROS); // binlog
    assertThat(CreatedAtConverter.micros(AT.atOffset(ZoneOffset.UTC))).isEqualTo(MICROS); // pg
    assertThat(CreatedAtConverter.micros(AT.atZone(ZoneId.of("Asia/Tokyo")))).isEqualTo(MICROS);
    assertThat(CreatedAtConverter.micros(AT)).isEqualTo(MICROS);
    assertThat(CreatedAtConverter.micros(Timestamp.from(AT))).isEqualTo(MICROS);
    assertThat(CreatedAtConverter.micros("2026-12-07T06:55:01.123456Z")).isEqualTo(MICROS);
  }

  @Test
  void andBackToTheSameInstantBeforeTheEpochToo() {
    assertThat(CreatedAtConverter.instant(MICROS)).isEqualTo(AT);
    Instant before = Instant.parse("1969-12-31T23:59:59.999999Z");
    assertThat(CreatedAtConverter.micros(before)).isEqualTo(-1L);
    assertThat(CreatedAtConverter.instant(-1L)).isEqualTo(before);
    Instant yearOne = Instant.parse("0001-01-01T00:00:00.000001Z");
    assertThat(CreatedAtConverter.instant(CreatedAtConverter.micros(yearOne))).isEqualTo(yearOne);
  }

  @Test
  void nullAndWhatNamesNoInstantAreNull() {
    assertThat(CreatedAtConverter.micros(null)).isNull();
    // A DATETIME or PostgreSQL timestamp: a wall-clock time on the server's clock, not a moment.
    assertThat(CreatedAtConverter.micros(LocalDateTime.ofInstant(AT, ZoneOffset.UTC))).isNull();
    assertThat(CreatedAtConverter.micros("CURRENT_TIMESTAMP(6)")).isNull();
    assertThat(CreatedAtConverter.micros(42)).isNull();
  }

  @Test
  void itRegistersForTheConfiguredColumnOfTheConfiguredTableOnly() {
    CreatedAtConverter converter = new CreatedAtConverter();
    Properties p = new Properties();
    p.setProperty("table", "shop.outbox");
    p.setProperty("column", "created_at");
    converter.configure(p);
    List<SchemaBuilder> registered = new ArrayList<>();
    converter.converterFor(column("shop.outbox", "created_at"), (s, c) -> registered.add(s));
    converter.converterFor(column("shop.outbox", "published_at"), (s, c) -> registered.add(s));
    converter.converterFor(column("shop.orders", "created_at"), (s, c) -> registered.add(s));
    assertThat(registered).hasSize(1);
    assertThat(registered.get(0).name()).isEqualTo(CreatedAtConverter.SCHEMA_NAME);
    assertThat(registered.get(0).type()).isEqualTo(org.apache.kafka.connect.data.Schema.Type.INT64);
    assertThat(registered.get(0).isOptional()).isTrue();
  }

  private static RelationalColumn column(String table, String name) {
    return new RelationalColumn() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String dataCollection() {
        return table;
      }

      @Override
      public int jdbcType() {
        return java.sql.Types.TIMESTAMP_WITH_TIMEZONE;
      }

      @Override
      public int nativeType() {
        return -1;
      }

      @Override
      public String typeName() {
        return "TIMESTAMP";
      }

      @Override
      public String typeExpression() {
        return "TIMESTAMP(6)";
      }

      @Override
      public OptionalInt length() {
        return OptionalInt.of(6);
      }

      @Override
      public OptionalInt scale() {
        return OptionalInt.empty();
      }

      @Override
      public boolean isOptional() {
        return false;
      }

      @Override
      public Object defaultValue() {
        return null;
      }

      @Override
      public boolean hasDefaultValue() {
        return false;
      }
    };
  }
}
