package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.Secrets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repeats a database step until it succeeds, with the relay's backoff between attempts and a WARN
 * per failure (the message masked). The one retry loop of the relay engine: a step that must not be
 * skipped (a read of the rows to publish, a write of the relay's progress) waits out a database
 * outage here instead of failing the relay. A stopping relay ends the wait through its {@link
 * Pause}. Not thread-safe; one per thread.
 */
public final class Retry {
  private static final Logger log = LoggerFactory.getLogger(Retry.class);

  /** A step that may fail with the database. */
  @FunctionalInterface
  public interface Step<T> {
    T run() throws SQLException, InterruptedException;
  }

  /** Waits between attempts; throws (e.g. a relay's stopping signal) to end the retries. */
  @FunctionalInterface
  public interface Pause {
    void pause(Duration delay) throws InterruptedException;
  }

  private final String name;
  private final Function<Integer, Long> backoffMillis;
  private final Pause pause;

  public Retry(String name, Function<Integer, Long> backoffMillis, Pause pause) {
    this.name = name;
    this.backoffMillis = backoffMillis;
    this.pause = pause;
  }

  /** Runs {@code step} until it returns; {@code what} names it in the log ("catch-up read"). */
  public <T> T untilDone(String what, Step<T> step) throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return step.run();
      } catch (SQLException e) {
        Duration delay = delay(attempt);
        log.warn(
            "{} - {} failed (attempt {}), retrying in ~{} ms: {}",
            name,
            what,
            attempt,
            delay.toMillis(),
            Secrets.maskText(String.valueOf(e.getMessage())));
        pause.pause(delay);
      }
    }
  }

  /** The relay's backoff before attempt {@code attempt + 1}. */
  public Duration delay(int attempt) {
    return Duration.ofMillis(backoffMillis.apply(attempt));
  }

  /** Waits as this retry waits between attempts. */
  public void pause(Duration delay) throws InterruptedException {
    pause.pause(delay);
  }
}
