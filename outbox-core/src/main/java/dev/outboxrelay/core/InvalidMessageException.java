package dev.outboxrelay.core;

/** An outbox message was rejected before anything was written; {@link #field()} names the field. */
public class InvalidMessageException extends OutboxException {
  private static final long serialVersionUID = 1L;
  private final String field;

  public InvalidMessageException(String field, String problem) {
    super("Invalid outbox message: " + field + " " + problem);
    this.field = field;
  }

  /** The message field that failed validation, e.g. {@code aggregateid} or {@code headers.foo}. */
  public String field() {
    return field;
  }
}
