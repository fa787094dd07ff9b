package dev.outboxrelay.relay.cdc.internal.debezium;

import dev.outboxrelay.core.Secrets;
import java.sql.BatchUpdateException;

/**
 * The failures of the relay's offset store, as the engine and the relay's state show them.
 *
 * <p>Invariant: no failure of the store carries a secret, in its message or in the message it
 * replaces; a failed save reads as one short line.
 *
 * <p>Debezium behaviour it answers: when its configuration fails, {@code
 * JdbcOffsetBackingStore#configure} throws "Failed to connect JDBC offset backing store: " followed
 * by every setting of the engine, {@code database.password} included; when it cannot reach the
 * database at start, the JDBC URL as given. The engine logs either exception ("Engine has failed
 * with") through the application's logging, which the relay does not configure when it runs
 * embedded. So these carry the cause alone, masked ({@link Secrets#maskText}).
 */
final class StoreFailures {
  private static final int MAX_REASON = 300;

  private StoreFailures() {}

  /** For a failure of {@code configure}: the cause alone, masked. */
  static IllegalStateException configureFailed(RuntimeException e) {
    Throwable cause = e.getCause() != null ? e.getCause() : e;
    return new IllegalStateException(
        "Failed to connect JDBC offset backing store: " + Secrets.maskText(cause.toString()),
        cause);
  }

  /** For a failure of {@code start}: its message masked, with its cause. */
  static IllegalStateException startFailed(RuntimeException e) {
    return new IllegalStateException(Secrets.maskText(e.getMessage()), e.getCause());
  }

  /**
   * A failed save's message for the relay's state: masked, the driver's next exception's for a
   * batch (pgjdbc's own holds the statement with its parameters), at most 300 characters.
   */
  static String reason(Exception e) {
    Exception shown = e;
    if (e instanceof BatchUpdateException b && b.getNextException() != null) {
      shown = b.getNextException();
    }
    String why = Secrets.maskText(shown.toString());
    return why.length() <= MAX_REASON ? why : why.substring(0, MAX_REASON - 3) + "...";
  }
}
