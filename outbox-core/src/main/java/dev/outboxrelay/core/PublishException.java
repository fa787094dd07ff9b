package dev.outboxrelay.core;

/**
 * A message could not be published. Whether to retry is decided by the type: {@link
 * RetriablePublishException} or {@link NonRetriablePublishException}, never by the message text.
 */
public abstract class PublishException extends OutboxException {
  private static final long serialVersionUID = 1L;

  protected PublishException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Whether publishing the same message again may succeed. */
  public abstract boolean isRetriable();
}
