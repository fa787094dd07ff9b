package dev.outboxrelay.testing;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.MessageLimits;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxMessageBuilder;
import java.util.Random;

/**
 * The largest message the writer accepts with its default limits: a payload of {@link
 * MessageLimits#DEFAULT_MAX_PAYLOAD_BYTES} random bytes, aggregateid and type of {@value
 * OutboxMessageBuilder#MAX_FIELD_LENGTH} three-byte characters, user headers taking exactly {@link
 * MessageLimits#MAX_HEADERS_BYTES}, a traceparent and the longest sequence.
 */
public final class LargestMessage {
  /** Three bytes in UTF-8, so a field of 255 of them is as long in bytes as a field can be. */
  private static final String WIDE = "\u20ac";

  private static final int HEADERS = 16;

  private LargestMessage() {}

  /** The largest message of this aggregatetype (which stays as given, to keep topics valid). */
  public static OutboxMessage of(String aggregateType) {
    byte[] payload = new byte[MessageLimits.DEFAULT_MAX_PAYLOAD_BYTES];
    new Random(16).nextBytes(payload);
    OutboxMessageBuilder b =
        OutboxMessage.builder()
            .aggregateType(aggregateType)
            .aggregateId(WIDE.repeat(OutboxMessageBuilder.MAX_FIELD_LENGTH))
            .type(WIDE.repeat(OutboxMessageBuilder.MAX_FIELD_LENGTH))
            .payload(payload)
            .traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
            .sequence(Long.MAX_VALUE);
    int each = MessageLimits.MAX_HEADERS_BYTES / HEADERS;
    for (int i = 0; i < HEADERS; i++) {
      String name = String.format("h%02d", i);
      b.header(name, value(each - name.length() - MessageLimits.HEADER_FRAMING_BYTES));
    }
    return b.build();
  }

  /**
   * The largest message as a relay reads it back from the table: {@link #of} plus the marker the
   * writer adds with key order on ({@code seq-order: key}), one of the contract headers that {@link
   * MessageLimits#ENVELOPE_BYTES} leaves room for.
   */
  public static OutboxMessage asWritten(String aggregateType) {
    return of(aggregateType).toBuilder()
        .header(MessageContract.HEADER_SEQUENCE_ORDER, MessageContract.SEQUENCE_ORDER_KEY)
        .build();
  }

  /** A value of exactly {@code bytes} UTF-8 bytes, mostly three-byte characters. */
  private static String value(int bytes) {
    return WIDE.repeat(bytes / 3) + "v".repeat(bytes % 3);
  }
}
