package dev.outboxrelay.relay.cdc.internal.debezium;

import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.Date;
import java.util.Properties;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * The outbox table's creation time as epoch microseconds (INT64, schema {@link #SCHEMA_NAME}), and
 * back to an instant ({@link #instant(long)}).
 *
 * <p>Invariant: a row's creation time reaches the relay as the instant the database stored, to the
 * microsecond, or as null when the column names no instant; only the one column the relay's
 * settings name ({@code <name>.table}, {@code <name>.column}) is converted.
 *
 * <p>Debezium behaviour it answers: without a converter Debezium renders a timestamp with a time
 * zone as a {@code ZonedTimestamp}, an ISO-8601 string; the MySQL/MariaDB connector formats it with
 * a {@code DateTimeFormatter} built anew for every row (a tenth of the binlog reader's time in a
 * profile of a backlog drain, and about 2.8 kB of garbage per row), and the relay would parse it
 * back. Debezium instantiates this {@code CustomConverter} by the class name in {@code
 * <name>.type}. A user's own {@code converters} setting replaces it; the relay then parses
 * Debezium's string ({@code OutboxEvents}).
 */
public final class CreatedAtConverter implements CustomConverter<SchemaBuilder, RelationalColumn> {
  /** The schema name of the converted column. */
  public static final String SCHEMA_NAME = "dev.outboxrelay.EpochMicros";

  private String table;
  private String column;

  @Override
  public void configure(Properties props) {
    table = props.getProperty("table");
    column = props.getProperty("column");
  }

  @Override
  public void converterFor(RelationalColumn field, ConverterRegistration<SchemaBuilder> reg) {
    if (column != null
        && column.equalsIgnoreCase(field.name())
        && (table == null || table.equalsIgnoreCase(field.dataCollection()))) {
      reg.register(SchemaBuilder.int64().name(SCHEMA_NAME).optional(), CreatedAtConverter::micros);
    }
  }

  /**
   * The raw value as microseconds since the epoch: a binlog row's {@code ZonedDateTime}, a
   * PostgreSQL {@code OffsetDateTime} or {@code Instant}; null for null and for what names no
   * instant: a column default such as {@code CURRENT_TIMESTAMP}, which rows never carry, and a
   * column without a time zone ({@code DATETIME}, PostgreSQL's {@code timestamp}: a wall-clock time
   * on the server's clock, not a moment), whose rows the relay then dates at their reading (the
   * tables it creates use {@code timestamp(6)} and {@code timestamptz}).
   */
  static Long micros(Object raw) {
    Instant at = instant(raw);
    return at == null
        ? null
        : Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1000);
  }

  /** Microseconds since the epoch as an instant. */
  public static Instant instant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }

  private static Instant instant(Object raw) {
    if (raw instanceof Instant i) {
      return i;
    }
    if (raw instanceof TemporalAccessor t && t.isSupported(ChronoField.INSTANT_SECONDS)) {
      return Instant.from(t);
    }
    if (raw instanceof Date d) {
      return d.toInstant();
    }
    if (raw instanceof String s) {
      try {
        return OffsetDateTime.parse(s).toInstant();
      } catch (DateTimeException e) {
        return null;
      }
    }
    return null;
  }
}
