package dev.outboxrelay.dedup;

import dev.outboxrelay.core.InvalidMessageException;
import dev.outboxrelay.core.MessageContract;

/**
 * What dedup needs to know about a message: its id (the dedup key, the {@code id} header of the
 * message contract) and, for the optional per-key high-water mark, its key ({@code aggregateid}),
 * its sequence (the {@code seq} header) and whether that sequence is <em>key-ordered</em> (the
 * {@code seq-order: key} header, {@link MessageContract#HEADER_SEQUENCE_ORDER}).
 *
 * <p>The high-water mark skips a message whose sequence is at or below its key's mark, so it is
 * applied only when {@code keyOrdered} is true. Callers that build identities themselves promise,
 * by passing {@code true}, that every message of the key with a lower sequence is delivered before
 * this one (its sequence increases in commit order per key and the source keeps that order); a
 * broken promise drops messages. With {@code false} the message is deduped by id only.
 *
 * @param id message id, 1–64 characters
 * @param key aggregate id, at most 255 characters, or {@code null}
 * @param sequence the message's database sequence, or {@code null}
 * @param keyOrdered whether {@code sequence} increases in commit order per key
 */
public record MessageIdentity(String id, String key, Long sequence, boolean keyOrdered) {
  static final int MAX_ID = 64;
  static final int MAX_KEY = 255;

  /**
   * @throws InvalidMessageException if the id is missing or too long, or the key too long
   */
  public MessageIdentity {
    if (id == null || id.isBlank()) {
      throw new InvalidMessageException("id", "is missing; dedup needs the message id");
    }
    if (id.length() > MAX_ID) {
      throw new InvalidMessageException("id", "must be at most " + MAX_ID + " characters");
    }
    if (key != null && key.length() > MAX_KEY) {
      throw new InvalidMessageException(
          "aggregateid", "must be at most " + MAX_KEY + " characters");
    }
  }

  /**
   * An identity whose sequence is <em>not</em> promised key-ordered: the high-water mark never
   * skips it (deduped by id only).
   */
  public MessageIdentity(String id, String key, Long sequence) {
    this(id, key, sequence, false);
  }

  /** An identity without key and sequence: dedup only, no high-water mark. */
  public static MessageIdentity of(String id) {
    return new MessageIdentity(id, null, null, false);
  }

  /** Whether key and sequence are both known. */
  public boolean hasSequence() {
    return key != null && sequence != null;
  }

  /** Whether the high-water mark may apply: key, sequence, and the key-order promise. */
  public boolean markApplies() {
    return hasSequence() && keyOrdered;
  }

  /**
   * Parses a {@code seq} header value.
   *
   * @return the sequence, or {@code null} when the value is {@code null}
   * @throws InvalidMessageException if it is not a decimal number
   */
  public static Long parseSequence(String value) {
    if (value == null) {
      return null;
    }
    try {
      return Long.valueOf(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidMessageException("seq", "must be a decimal number, but was '" + value + "'");
    }
  }

  /** Whether a {@code seq-order} header value promises key order: exactly {@code key}. */
  public static boolean parseKeyOrdered(String value) {
    return MessageContract.SEQUENCE_ORDER_KEY.equals(value);
  }
}
