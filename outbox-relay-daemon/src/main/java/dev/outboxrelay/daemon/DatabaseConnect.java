package dev.outboxrelay.daemon;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.daemon.StartupFailure.Kind;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.daemon.config.RelayConfig.DatabaseConfig;
import io.github.resilience4j.core.IntervalFunction;
import java.net.ConnectException;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a relay's pool, waiting for a database that is down or still starting (SQLState class 08,
 * {@code 57P03}, connection refused) with a doubling backoff up to a deadline. Refused credentials
 * (SQLState class 28, or a password the server asks for and the config does not set) fail at once
 * as an authentication failure, naming {@code database.password} when it is not set; any other
 * refusal (a database that does not exist, a bad URL option) is a configuration error.
 */
final class DatabaseConnect {
  private static final Logger log = LoggerFactory.getLogger(DatabaseConnect.class);

  /** The same resilience4j backoff the relays use, here between start-up attempts. */
  private static final IntervalFunction BACKOFF =
      IntervalFunction.ofExponentialBackoff(Duration.ofMillis(200), 2.0, Duration.ofSeconds(5));

  private DatabaseConnect() {}

  /** One attempt: for the operator commands, which should not hang on a down database. */
  static HikariDataSource once(RelayConfig relay, int index) {
    return open(relay, index, System.nanoTime(), Duration.ZERO);
  }

  /** Attempts until {@code deadlineNanos} ({@link System#nanoTime()}) for a transient failure. */
  static HikariDataSource open(RelayConfig relay, int index, long deadlineNanos, Duration budget) {
    String where = "relays[" + index + "].database.url " + Secrets.maskUrl(relay.database().url());
    for (int attempt = 1; ; attempt++) {
      try {
        return new HikariDataSource(config(relay));
      } catch (RuntimeException e) {
        long backoff = BACKOFF.apply(attempt);
        SQLException sql = cause(e, SQLException.class);
        String state = sql == null ? null : sql.getSQLState();
        String reason = Secrets.maskText(Wiring.rootMessage(e));
        if (refusedCredentials(state, relay)) {
          throw new StartupFailure(
              Kind.AUTHENTICATION,
              where
                  + " refused user '"
                  + relay.database().username()
                  + "' (SQLState "
                  + state
                  + ")"
                  + (hasPassword(relay)
                      ? ""
                      : "; relays[" + index + "].database.password is not set")
                  + ": "
                  + reason);
        }
        if (!isTransient(state, e)) {
          throw new ConfigError(where + " cannot be used: " + reason, null);
        }
        long leftMs = (deadlineNanos - System.nanoTime()) / 1_000_000;
        if (leftMs <= 0) {
          throw new StartupFailure(
              Kind.UNAVAILABLE,
              where
                  + " is not reachable"
                  + (budget.isZero()
                      ? ""
                      : " (" + attempt + " attempt(s) within startup-timeout " + budget + ")")
                  + ": "
                  + reason);
        }
        log.warn(
            "Relay {} - database not reachable yet (attempt {}): {}; retrying in {} ms",
            relay.name(),
            attempt,
            reason,
            backoff);
        sleep(Math.min(backoff, leftMs));
      }
    }
  }

  private static HikariConfig config(RelayConfig relay) {
    DatabaseConfig db = relay.database();
    HikariConfig hc = new HikariConfig();
    hc.setPoolName("outbox-" + relay.name());
    hc.setJdbcUrl(db.url());
    hc.setUsername(db.username());
    hc.setPassword(db.password());
    hc.setMaximumPoolSize(db.poolSize());
    hc.setConnectionTimeout(10_000);
    return hc;
  }

  /**
   * Class 28; or, without a password, PostgreSQL's {@code 08004} "the server requested
   * password-based authentication, but no password was provided" (a rejection, not an outage).
   */
  private static boolean refusedCredentials(String state, RelayConfig relay) {
    return state != null
        && (state.startsWith("28") || (state.equals("08004") && !hasPassword(relay)));
  }

  private static boolean hasPassword(RelayConfig relay) {
    String p = relay.database().password();
    return p != null && !p.isEmpty();
  }

  /** Down, starting up, shutting down or out of connections: worth another attempt. */
  private static boolean isTransient(String state, Throwable e) {
    if (state == null) {
      return cause(e, ConnectException.class) != null;
    }
    return state.startsWith("08") || state.equals("57P03") || state.equals("53300");
  }

  private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis); // a start-up backoff, not a wait for an outcome
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StartupFailure(Kind.UNAVAILABLE, "interrupted while waiting for the database");
    }
  }
}
