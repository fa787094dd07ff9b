package dev.outboxrelay.core;

/**
 * The broker will never accept this message as it is (too large, rejected, not authorised). The
 * relay parks the message's key with this exception's message as the reason.
 */
public class NonRetriablePublishException extends PublishException {
  private static final long serialVersionUID = 1L;

  public NonRetriablePublishException(String message, Throwable cause) {
    super(message, cause);
  }

  @Override
  public boolean isRetriable() {
    return false;
  }
}
