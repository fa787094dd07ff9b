package dev.outboxrelay.relay.engine;

import static dev.outboxrelay.core.Jdbc.params;

import dev.outboxrelay.core.BatchOutcome;
import dev.outboxrelay.core.Jdbc;
import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.rows.PendingRow;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The dead-letter copy of parked messages, for the relays (not an application API): which parked
 * keys still need one, the copy itself, and the durable record that it was sent. The copy is the
 * parked message (same id, key, payload and headers, so the message contract holds) plus {@link
 * MessageContract#HEADER_PARKED_REASON}, {@link MessageContract#HEADER_PARKED_AT} and, when the
 * publisher knows it, {@link MessageContract#HEADER_ORIGINAL_TOPIC}. Stateless, thread-safe.
 */
public final class DeadLetters {
  /** The body of a copy sent without its payload. */
  static final byte[] DROPPED = "payload dropped".getBytes(StandardCharsets.UTF_8);

  private DeadLetters() {}

  /**
   * A parked key still to copy: its parked row read back from the outbox ({@code row.malformed()}
   * set when the row cannot be read as a message), why and when it was parked.
   */
  public record Due(PendingRow row, String reason, Instant parkedAt) {}

  /**
   * Up to {@code limit} parked keys of the given buckets (empty: all) whose parked message has not
   * been copied for this parking, oldest parking first, then by key. A key whose message row is
   * gone (an operator deleted it) is not listed.
   */
  public static List<Due> due(Connection c, StateSql sql, List<Integer> buckets, int limit)
      throws SQLException {
    return due(c, sql, buckets, limit, null);
  }

  /**
   * As {@link #due(Connection, StateSql, List, int)}, those after {@code after} in that order
   * (null: from the first), so that a caller can page through more keys than it reads at once.
   */
  public static List<Due> due(
      Connection c, StateSql sql, List<Integer> buckets, int limit, Due after) throws SQLException {
    List<Object> values = new ArrayList<>(buckets);
    if (after != null) {
      Timestamp at = Timestamp.from(after.parkedAt());
      values.addAll(List.of(at, at, after.row().aggregateId()));
    }
    values.add(limit);
    return Jdbc.query(
        c,
        sql.deadLetterDue(buckets.size(), after != null),
        params(values.toArray()),
        rs -> new Due(PendingRow.read(rs), rs.getString(11), rs.getTimestamp(12).toInstant()));
  }

  /**
   * Records that the key's parked message was copied to {@code topic}, replacing the record of an
   * earlier parking; false (nothing recorded) if the key is no longer parked at that message by the
   * parking {@code due} was read from. Auto-commit or the caller's transaction.
   */
  public static boolean record(Connection c, StateSql sql, Due due, String topic)
      throws SQLException {
    String key = due.row().aggregateId();
    Jdbc.update(c, sql.forgetDeadLetter(), params(key));
    Object id = sql.idValue(due.row().id());
    Timestamp parkedAt = Timestamp.from(due.parkedAt());
    return Jdbc.update(c, sql.recordDeadLetter(), params(topic, key, id, parkedAt)) == 1;
  }

  /**
   * Sends the copy of a due, readable message to {@code topic} and waits up to {@code timeout}. If
   * the topic refuses the whole copy for good (a message parked for its size is as large on the
   * dead-letter topic), a copy without the payload follows ({@link
   * MessageContract#HEADER_PAYLOAD_DROPPED}). Returns the last result; a failure is typed as any
   * publish failure.
   */
  public static PublishResult send(Publisher publisher, String topic, Due due, Duration timeout)
      throws InterruptedException {
    OutboxMessage copy = copy(publisher, due);
    PublishResult r = sendOne(publisher, topic, copy, timeout);
    if (r.isAcknowledged() || r.failure().orElseThrow().isRetriable()) {
      return r;
    }
    OutboxMessage dropped =
        copy.toBuilder()
            .payload(DROPPED)
            .header(MessageContract.HEADER_PAYLOAD_DROPPED, Integer.toString(copy.payloadSize()))
            .build();
    return sendOne(publisher, topic, dropped, timeout);
  }

  /** The copy of a due message with the dead-letter headers. */
  static OutboxMessage copy(Publisher publisher, Due due) {
    OutboxMessage m = due.row().message();
    var b =
        m.toBuilder()
            .header(MessageContract.HEADER_PARKED_REASON, nonBlank(due.reason()))
            .header(MessageContract.HEADER_PARKED_AT, due.parkedAt().toString());
    publisher.topicOf(m).ifPresent(t -> b.header(MessageContract.HEADER_ORIGINAL_TOPIC, t));
    return b.build();
  }

  private static PublishResult sendOne(
      Publisher publisher, String topic, OutboxMessage copy, Duration timeout)
      throws InterruptedException {
    List<OutboxMessage> one = List.of(copy);
    return BatchOutcome.await(
            publisher.publishTo(topic, one), one, System.nanoTime() + timeout.toNanos())
        .get(0);
  }

  /** RocketMQ drops blank properties: a blank reason would vanish from the copy. */
  private static String nonBlank(String reason) {
    return reason == null || reason.isBlank() ? "(no reason given)" : reason;
  }
}
