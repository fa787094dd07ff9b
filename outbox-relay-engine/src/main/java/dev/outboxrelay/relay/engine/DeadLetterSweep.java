package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.engine.DeadLetters.Due;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead-letter loop both relays run (not an application API): every {@link #INTERVAL} (or when a
 * failed copy's backoff is due) it reads which parked keys still need their copy ({@link
 * DeadLetters#due}: so keys parked before a restart or by another instance are found too), sends
 * each ({@link DeadLetters#send}) and records it once the broker acknowledged it. A failed copy is
 * retried per key with the relay's backoff; a retriable failure ends the round (the broker looks
 * down). It never fails its caller: a database error is logged and retried next round. One thread
 * at a time runs it, never a relay's claim loop (a send can block up to the publish timeout, longer
 * than a lease lives); {@link #forgetBackoff} from any thread.
 */
public final class DeadLetterSweep {
  private static final Logger log = LoggerFactory.getLogger(DeadLetterSweep.class);

  /** How often parked keys are looked for. */
  public static final Duration INTERVAL = Duration.ofSeconds(2);

  private static final int LIMIT = 100;

  /** Where the sweep's statements get their connection (auto-commit). */
  @FunctionalInterface
  public interface Connections {
    Connection get() throws SQLException;
  }

  /** What a sweep needs from its relay. */
  public record Settings(
      String relayName,
      Publisher publisher,
      String topic,
      Duration publishTimeout,
      Function<Integer, Long> backoffMillis,
      RelayListener listener) {}

  private final Settings s;
  private final Connections connections;
  private final StateSql sql;
  private final Ticker ticker;
  private final KeyBackoffs failing;
  private final Set<String> unreadable = new HashSet<>();
  private long nextNanos;
  private Due cursor; // where the next round starts reading; null: from the oldest parking
  private volatile boolean forget;

  public DeadLetterSweep(Settings settings, Connections connections, StateSql sql, Ticker ticker) {
    this.s = settings;
    this.connections = connections;
    this.sql = sql;
    this.ticker = ticker;
    this.failing = new KeyBackoffs(settings.backoffMillis(), ticker);
    this.nextNanos = ticker.read();
  }

  /** The sweep of a relay with a dead-letter topic. */
  public static DeadLetterSweep of(
      EngineSettings relay, String topic, Connections connections, StateSql sql) {
    return new DeadLetterSweep(
        new Settings(
            relay.name(),
            relay.publisher(),
            topic,
            relay.publishTimeout(),
            relay.backoff(),
            relay.listener()),
        connections,
        sql,
        relay.ticker());
  }

  /** Copies what is due for these buckets (empty: every bucket), if a round is due. */
  public void run(List<Integer> buckets) throws InterruptedException {
    if (forget) {
      forget = false;
      failing.clear();
      cursor = null;
    }
    long now = ticker.read();
    if (now - nextNanos < 0) {
      return;
    }
    nextNanos = now + INTERVAL.toNanos();
    try {
      List<Due> due;
      Due start = cursor;
      try (Connection c = connections.get()) {
        due = DeadLetters.due(c, sql, buckets, LIMIT, start);
      }
      // A round reads one page and the next round the page after it, wrapping after a short page:
      // keys that cannot be copied (unreadable rows, copies backing off) never hide newer ones. A
      // round the broker ends early resumes at the key it ended on.
      cursor = due.size() < LIMIT ? null : due.get(due.size() - 1);
      Due before = start;
      for (Due d : due) {
        if (failing.isDue(d.row().aggregateId()) && !copy(d)) {
          cursor = before;
          return;
        }
        before = d;
      }
    } catch (SQLException | RuntimeException e) {
      log.warn(
          "{} - dead-letter round failed, next in {}: {}", s.relayName(), INTERVAL, e.toString());
    }
  }

  /** False if the broker looks down (ends the round). */
  private boolean copy(Due due) throws SQLException, InterruptedException {
    String key = due.row().aggregateId();
    if (due.row().malformed() != null) {
      if (unreadable.add(key)) { // a row that is no message cannot be copied; said once
        log.warn(
            "{} - parked key {} not dead-lettered: {}", s.relayName(), key, due.row().malformed());
      }
      return true;
    }
    PublishResult r = DeadLetters.send(s.publisher(), s.topic(), due, s.publishTimeout());
    if (r.isAcknowledged()) {
      failing.succeeded(key);
      if (record(due)) {
        log.info(
            "{} - parked message {} of key {} copied to dead-letter topic {}",
            s.relayName(),
            due.row().id(),
            key,
            s.topic());
        Listeners.safely(
            s.relayName(), () -> s.listener().onDeadLettered(key, r.message(), s.topic()));
      }
      return true;
    }
    PublishException failure = r.failure().orElseThrow();
    KeyBackoffs.Attempt failed = failing.failed(key);
    int attempt = failed.number();
    Duration delay = failed.delay();
    long retryAt = ticker.read() + delay.toNanos();
    if (retryAt - nextNanos < 0) {
      nextNanos = retryAt; // retry when due
    }
    log.warn(
        "{} - dead-letter copy of message {} of key {} failed (attempt {}), retrying in ~{} ms: {}",
        s.relayName(),
        due.row().id(),
        key,
        attempt,
        delay.toMillis(),
        failure.getMessage());
    Listeners.safely(
        s.relayName(), () -> s.listener().onDeadLetterFailed(key, failure, attempt, delay));
    return !failure.isRetriable();
  }

  private boolean record(Due due) throws SQLException {
    try (Connection c = connections.get()) {
      c.setAutoCommit(false);
      try {
        boolean recorded = DeadLetters.record(c, sql, due, s.topic());
        c.commit();
        return recorded;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  /**
   * The relay's buckets changed: keys of other buckets are no longer its own to retry. Any thread:
   * the next round forgets.
   */
  public void forgetBackoff() {
    forget = true;
  }
}
