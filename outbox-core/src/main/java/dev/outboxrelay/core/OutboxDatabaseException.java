package dev.outboxrelay.core;

import java.sql.SQLException;

/** A database call failed. Wraps the {@link SQLException} once, at the boundary. */
public class OutboxDatabaseException extends OutboxException {
  private static final long serialVersionUID = 1L;

  public OutboxDatabaseException(String message, SQLException cause) {
    super(message + ": " + cause.getMessage() + " (SQLState " + cause.getSQLState() + ")", cause);
  }

  /** The SQLState of the underlying error, or {@code null}. */
  public String sqlState() {
    return ((SQLException) getCause()).getSQLState();
  }
}
