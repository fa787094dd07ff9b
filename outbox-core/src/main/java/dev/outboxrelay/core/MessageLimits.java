package dev.outboxrelay.core;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * How large a message may be so that every publisher accepts it with its own and its broker's
 * default settings. The payload is limited by a setting of the writer, at most {@link
 * #DEFAULT_MAX_PAYLOAD_BYTES} by default; everything else is bounded here, so that the payload
 * limit alone decides whether a message fits: aggregatetype, aggregateid and type are at most
 * {@value OutboxMessageBuilder#MAX_FIELD_LENGTH} characters (765 UTF-8 bytes), the user's headers
 * at most {@value #MAX_HEADERS_BYTES} bytes ({@link #headersBytes}), the contract headers are fixed
 * (the writer's {@code seq-order: key} marker among them). The worst case of all that, with Kafka's
 * record and batch framing, is 18,938 bytes, well inside {@value #ENVELOPE_BYTES}.
 *
 * <p>A publisher fits every message the writer accepts if its request limit is at least the
 * writer's payload limit plus {@value #ENVELOPE_BYTES}.
 */
public final class MessageLimits {
  /**
   * The smallest request limit among the publishers' defaults: Kafka's {@code max.request.size}, 1
   * MiB (brokers' {@code message.max.bytes} is 12 bytes more; RocketMQ's limits are 4 MiB).
   */
  public static final int SMALLEST_DEFAULT_REQUEST_BYTES = 1024 * 1024;

  /** Room beside the payload for key, type, all headers and the brokers' framing: 32 KiB. */
  public static final int ENVELOPE_BYTES = 32 * 1024;

  /** The writer's default payload limit: 1 MiB - 32 KiB = 1,015,808 bytes. */
  public static final int DEFAULT_MAX_PAYLOAD_BYTES =
      SMALLEST_DEFAULT_REQUEST_BYTES - ENVELOPE_BYTES;

  /**
   * Largest total of the user's headers, as counted by {@link #headersBytes}: 16 KiB, also well
   * under RocketMQ's fixed 32 KiB limit on a message's properties.
   */
  public static final int MAX_HEADERS_BYTES = 16 * 1024;

  /**
   * Counted per header besides its name and value: Kafka's two length prefixes take at most 5
   * bytes, RocketMQ's separators 2.
   */
  public static final int HEADER_FRAMING_BYTES = 8;

  private MessageLimits() {}

  /** The user's headers as counted against {@link #MAX_HEADERS_BYTES}: UTF-8 names and values. */
  public static int headersBytes(Map<String, String> headers) {
    long total = 0;
    for (Map.Entry<String, String> h : headers.entrySet()) {
      total += utf8Length(h.getKey()) + utf8Length(h.getValue()) + HEADER_FRAMING_BYTES;
    }
    return (int) Math.min(total, Integer.MAX_VALUE);
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
