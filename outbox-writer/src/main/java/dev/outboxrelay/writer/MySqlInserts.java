package dev.outboxrelay.writer;

import dev.outboxrelay.core.OutboxMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * MySQL/MariaDB: a batch's rows as multi-row {@code INSERT} statements with literal values, so that
 * the key-slot lock and the inserts go to the server as one statement batch (MariaDB Connector/J
 * pipelines it: one round trip). Every value is a hex literal ({@code X'..'}, text with the {@code
 * _utf8mb4} introducer) or a uuid's own digits, so no text of the caller's reaches the SQL
 * unescaped, whatever the session's {@code sql_mode}. A statement holds rows up to about {@link
 * #STATEMENT_CHARS}, far below the servers' default {@code max_allowed_packet} (16 MiB MariaDB, 64
 * MiB MySQL), and at least one row.
 */
final class MySqlInserts {
  static final int STATEMENT_CHARS = 4 << 20;
  private static final HexFormat HEX = HexFormat.of();

  private final String prefix;

  /**
   * {@code prefix}: {@code INSERT INTO <table> (<id, aggregatetype, ..., traceparent>) VALUES }.
   */
  MySqlInserts(String prefix) {
    this.prefix = prefix;
  }

  /** The statements inserting {@code messages} in iteration order. */
  List<String> statements(
      Iterable<OutboxMessage> messages, Function<OutboxMessage, Map<String, String>> headers) {
    List<String> statements = new ArrayList<>();
    StringBuilder sql = new StringBuilder(prefix);
    for (OutboxMessage m : messages) {
      String row = row(m, headers.apply(m));
      if (sql.length() > prefix.length() && sql.length() + row.length() > STATEMENT_CHARS) {
        statements.add(sql.toString());
        sql = new StringBuilder(prefix);
      }
      sql.append(sql.length() > prefix.length() ? ", " : "").append(row);
    }
    statements.add(sql.toString());
    return statements;
  }

  private static String row(OutboxMessage m, Map<String, String> headers) {
    return "('"
        + m.id()
        + "', "
        + text(m.aggregateType())
        + ", "
        + text(m.aggregateId())
        + ", "
        + text(m.type())
        + ", X'"
        + HEX.formatHex(m.payload())
        + "', "
        + text(dev.outboxrelay.core.rows.HeadersJson.encode(headers))
        + ", "
        + text(m.traceparent().orElse(null))
        + ")";
  }

  private static String text(String s) {
    return s == null
        ? "NULL"
        : "_utf8mb4 X'" + HEX.formatHex(s.getBytes(StandardCharsets.UTF_8)) + "'";
  }
}
