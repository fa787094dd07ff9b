package dev.outboxrelay.core;

/** A transient failure (broker down, timeout, leader change): retry with backoff. */
public class RetriablePublishException extends PublishException {
  private static final long serialVersionUID = 1L;

  public RetriablePublishException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public boolean isRetriable() {
    return true;
  }
}
