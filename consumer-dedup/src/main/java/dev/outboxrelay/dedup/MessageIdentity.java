package dev.outboxrelay.dedup;

import dev.outboxrelay.core.InvalidMessageException;

/**
 * What dedup needs to know about a message: its id (the dedup key, the {@code id} header of the
 * message contract) and, for the optional per-key high-water mark, its key ({@code aggregateid})
 * and sequence (the {@code seq} header).
 *
 * @param id message id, 1–64 characters
 * @param key aggregate id, at most 255 characters, or {@code null}
 * @param sequence the message's database sequence, or {@code null}
 */
public record MessageIdentity(String id, String key, Long sequence) {
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

  /** An identity without key and sequence: dedup only, no high-water mark. */
  public static MessageIdentity of(String id) {
    return new MessageIdentity(id, null, null);
  }

  /** Whether the high-water mark can apply: key and sequence are both known. */
  public boolean hasSequence() {
    return key != null && sequence != null;
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
}
