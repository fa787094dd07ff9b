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
   * The message's database sequence ({@code seq}, decimal text): increasing in insertion order, so
   * per key too. Consumers may keep a per-key high-water mark on it.
   */
  public static final String HEADER_SEQUENCE = "seq";

  /** The W3C trace context, when the message has one. */
  public static final String HEADER_TRACEPARENT = "traceparent";

  /** Header names users may not set; lower case. */
  public static final Set<String> RESERVED_HEADERS =
      Set.of(HEADER_ID, HEADER_TYPE, HEADER_AGGREGATE_TYPE, HEADER_SEQUENCE);

  private MessageContract() {}
}
