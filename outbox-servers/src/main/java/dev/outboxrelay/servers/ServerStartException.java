package dev.outboxrelay.servers;

/** A test server could not start; the message says why and where its log is. Never a skip. */
public final class ServerStartException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ServerStartException(String message) {
    super(message);
  }

  public ServerStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
