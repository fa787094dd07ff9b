package dev.outboxrelay.core;

import java.util.Set;

/**
 * The message contract on the broker, identical for every relay: key = aggregateid, these headers
 * (id, type, aggregatetype, seq, and traceparent when present), then the user's headers; topic from
 * a {@link TopicTemplate} over aggregatetype.
 */
public final class MessageContract {
  /** The message id (UUID text); the dedup key. */
  public static final String HEADER_ID = "id";

  /** The event type. */
  public static final String HEADER_TYPE = "type";

  /** The aggregate type. */
  public static final String HEADER_AGGREGATE_TYPE = "aggregatetype";

  /**
   * The message's database sequence ({@code seq}, decimal text): increasing in insertion order.
   * Commit order may differ from insertion order, so a consumer may keep a per-key high-water mark
   * on it only for messages that carry {@link #HEADER_SEQUENCE_ORDER}.
   */
  public static final String HEADER_SEQUENCE = "seq";

  /**
   * Set to {@link #SEQUENCE_ORDER_KEY} by a writer built with key order on (the default): the
   * message's {@code seq} increases in commit order per key, whichever relay publishes it, so a
   * consumer's per-key high-water mark may skip a message whose {@code seq} is at or below the
   * mark. Written by the writer into the row's headers column and published as a user header, so
   * every relay (and Debezium's Event Router, where it passes the headers column on) carries it; a
   * message without it is deduped by id only. The writer sets it (key order on) or removes it
   * (off), whatever the message's own headers say.
   */
  public static final String HEADER_SEQUENCE_ORDER = "seq-order";

  /** The value of {@link #HEADER_SEQUENCE_ORDER}: {@code seq} is commit-ordered per key. */
  public static final String SEQUENCE_ORDER_KEY = "key";

  /** The W3C trace context, when the message has one. */
  public static final String HEADER_TRACEPARENT = "traceparent";

  /**
   * On a dead-letter copy of a parked message ({@code RelaySettings.DEAD_LETTER_TOPIC}): why the
   * key was parked, as stored in the parked table (at most 2000 characters).
   */
  public static final String HEADER_PARKED_REASON = "outbox-parked-reason";

  /** On a dead-letter copy: when the key was parked, ISO-8601 UTC on the database clock. */
  public static final String HEADER_PARKED_AT = "outbox-parked-at";

  /** On a dead-letter copy: the topic the message was meant for, when the publisher knows it. */
  public static final String HEADER_ORIGINAL_TOPIC = "outbox-original-topic";

  /**
   * On a dead-letter copy sent without its payload, because the dead-letter topic refused the whole
   * copy for good (typically a message parked for its size): the original payload's size in bytes
   * (decimal text). The copy's body is then the text {@code payload dropped}.
   */
  public static final String HEADER_PAYLOAD_DROPPED = "outbox-payload-dropped";

  /**
   * The W3C {@code tracestate} that goes with {@link #HEADER_TRACEPARENT}. The table has no column
   * for it: it travels as a user header of this name (in the headers column, then on the broker
   * message like every user header), set by the writer together with the traceparent it takes from
   * the current OpenTelemetry context. Not reserved: a caller that sets its own traceparent may set
   * its own tracestate header too.
   */
  public static final String HEADER_TRACESTATE = "tracestate";

  /** Header names users may not set; lower case. */
  public static final Set<String> RESERVED_HEADERS =
      Set.of(HEADER_ID, HEADER_TYPE, HEADER_AGGREGATE_TYPE, HEADER_SEQUENCE);

  private MessageContract() {}
}
