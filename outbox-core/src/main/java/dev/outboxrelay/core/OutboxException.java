package dev.outboxrelay.core;

/** Root of every exception thrown by outbox-relay. Unchecked. */
public class OutboxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public OutboxException(String message) {
    super(message);
  }

  public OutboxException(String message, Throwable cause) {
    super(message, cause);
  }
}
