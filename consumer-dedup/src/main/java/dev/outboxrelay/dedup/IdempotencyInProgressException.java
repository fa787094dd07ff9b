package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxException;

/**
 * Another caller holds the key's claim (still processing after the wait, or it took over this
 * caller's expired claim). Retriable: ask again later for the cached response (HTTP 409).
 */
public class IdempotencyInProgressException extends OutboxException {
  private static final long serialVersionUID = 1L;
  private final String key;

  public IdempotencyInProgressException(String key, String detail) {
    super("Idempotency key " + key + " is in progress: " + detail);
    this.key = key;
  }

  /** The idempotency key. */
  public String key() {
    return key;
  }
}
