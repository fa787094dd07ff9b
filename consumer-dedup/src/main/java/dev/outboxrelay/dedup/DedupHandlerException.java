package dev.outboxrelay.dedup;

import dev.outboxrelay.core.OutboxException;

/**
 * The application handler threw; its transaction and the dedup record rolled back, so the message
 * must be redelivered. The handler's exception is the cause.
 */
public class DedupHandlerException extends OutboxException {
  private static final long serialVersionUID = 1L;
  private final String messageId;

  public DedupHandlerException(String messageId, Throwable cause) {
    super("Handler failed for message " + messageId + ": " + cause, cause);
    this.messageId = messageId;
  }

  /** The id of the message whose handler failed. */
  public String messageId() {
    return messageId;
  }
}
