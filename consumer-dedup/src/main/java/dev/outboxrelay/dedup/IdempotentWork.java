package dev.outboxrelay.dedup;

import java.sql.Connection;

/** The work of a request; its writes on {@code connection} commit together with the response. */
@FunctionalInterface
public interface IdempotentWork {
  /**
   * Does the work once and returns the response to cache. Throwing rolls back and releases the key,
   * so the request may be retried.
   *
   * @throws Exception any failure
   */
  byte[] execute(Connection connection) throws Exception;
}
