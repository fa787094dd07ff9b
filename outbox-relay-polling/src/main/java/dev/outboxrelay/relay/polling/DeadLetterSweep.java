package dev.outboxrelay.relay.polling;

import static dev.outboxrelay.relay.polling.RelayWorker.safely;

import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.relay.state.DeadLetters;
import dev.outboxrelay.relay.state.DeadLetters.Due;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the parked message of each parked key of the leased buckets to the dead-letter topic, once
 * per parking: what is due is read from the table (so keys parked before a restart or by another
 * relay are found too) and a copy is recorded in {@code <table>_dead_letter} once the broker
 * acknowledged it. A failed copy is tried again with the relay's backoff per key; a retriable
 * failure ends the sweep (the broker looks down). The sweep never fails the relay: a database error
 * is logged and the sweep waits {@link #INTERVAL}. Worker thread only.
 */
final class DeadLetterSweep {
  private static final Logger log = LoggerFactory.getLogger(DeadLetterSweep.class);

  /** How often parked keys are looked for. */
  static final Duration INTERVAL = Duration.ofSeconds(2);

  private static final int LIMIT = 100;

  private final PollingRelayConfig config;
  private final RelayStore store;
  private final String topic;
  private final KeyBackoff backoff;
  private final Set<String> unreadable = new HashSet<>();
  private long nextNanos = System.nanoTime();

  DeadLetterSweep(PollingRelayConfig config, RelayStore store) {
    this.config = config;
    this.store = store;
    this.topic = config.deadLetterTopic().orElse(null);
    this.backoff = new KeyBackoff(config.backoff());
  }

  /** Copies what is due, if a sweep is due and a dead-letter topic is set. */
  void run(Set<Integer> buckets) throws InterruptedException {
    long now = System.nanoTime();
    if (topic == null || buckets.isEmpty() || now - nextNanos < 0) {
      return;
    }
    nextNanos = now + INTERVAL.toNanos();
    try {
      Set<String> waiting = new HashSet<>(backoff.waiting(Integer.MAX_VALUE));
      for (Due due : store.deadLetterDue(List.copyOf(buckets), LIMIT)) {
        if (!waiting.contains(due.row().aggregateId()) && !copy(due)) {
          return;
        }
      }
    } catch (java.sql.SQLException | RuntimeException e) {
      log.warn(
          "{} - dead-letter sweep failed, next in {}: {}", config.name(), INTERVAL, e.toString());
    }
  }

  /** False if the broker looks down (stop this sweep). */
  private boolean copy(Due due) throws java.sql.SQLException, InterruptedException {
    String key = due.row().aggregateId();
    if (due.row().malformed() != null) {
      if (unreadable.add(key)) { // a row that is no message cannot be copied; said once
        log.warn(
            "{} - parked key {} not dead-lettered: {}", config.name(), key, due.row().malformed());
      }
      return true;
    }
    PublishResult r = DeadLetters.send(config.publisher(), topic, due, config.publishTimeout());
    if (r.isAcknowledged()) {
      backoff.succeeded(key);
      if (store.recordDeadLetter(due, topic)) {
        log.info(
            "{} - parked message {} of key {} copied to dead-letter topic {}",
            config.name(),
            due.row().id(),
            key,
            topic);
        safely(() -> config.listener().onDeadLettered(key, r.message(), topic));
      }
      return true;
    }
    PublishException failure = r.failure().orElseThrow();
    int attempt = backoff.failed(key);
    Duration delay = backoff.delay(attempt);
    nextNanos = Math.min(nextNanos, System.nanoTime() + delay.toNanos()); // retry when due
    log.warn(
        "{} - dead-letter copy of message {} of key {} failed (attempt {}), retrying in ~{} ms: {}",
        config.name(),
        due.row().id(),
        key,
        attempt,
        delay.toMillis(),
        failure.getMessage());
    safely(() -> config.listener().onDeadLetterFailed(key, failure, attempt, delay));
    return !failure.isRetriable();
  }

  /** Leases changed: keys of other buckets are no longer this relay's to retry. */
  void forgetBackoff() {
    backoff.clear();
  }
}
