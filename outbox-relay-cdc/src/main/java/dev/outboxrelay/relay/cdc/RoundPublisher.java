package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.rows.PendingRow;
import dev.outboxrelay.relay.cdc.internal.debezium.PublishedLog;
import dev.outboxrelay.relay.engine.KeyDelivery;
import dev.outboxrelay.relay.engine.PublishOutcome;
import dev.outboxrelay.relay.engine.Retry;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a round of rows the stream carried (or the catch-up read) until the broker took it:
 * never skipping a row, retrying a broker outage or a database error with the relay's backoff, and
 * logging what was acknowledged for the round's durable write. On PostgreSQL a round first waits
 * until the transactions it must read the table for are visible. Processor thread only.
 */
final class RoundPublisher {
  private static final Logger log = LoggerFactory.getLogger(RoundPublisher.class);
  private static final Duration VISIBILITY_WARNING = Duration.ofSeconds(10);
  private static final Duration VISIBILITY_POLL = Duration.ofMillis(5);

  private final CdcRelayConfig config;
  private final CdcStore store;
  private final Publishing publishing;
  private final PublishedLog published;
  private final PositionWrites writes;
  private final Retry retry;

  RoundPublisher(
      CdcRelayConfig config,
      CdcStore store,
      Publishing publishing,
      PublishedLog published,
      PositionWrites writes,
      Retry retry) {
    this.config = config;
    this.store = store;
    this.publishing = publishing;
    this.published = published;
    this.writes = writes;
    this.retry = retry;
  }

  /**
   * PostgreSQL: waits until these transactions, whose commits the stream carried, are visible to a
   * new snapshot. The WAL can carry a commit a moment before the transaction becomes visible; a row
   * read as absent in that moment would be taken for done and never published.
   */
  void awaitVisible(Collection<Long> txids) throws InterruptedException {
    Collection<Long> waiting = txids;
    long since = config.ticker().read();
    boolean warned = false;
    while (!waiting.isEmpty()) {
      Collection<Long> asked = waiting;
      waiting = retry.untilDone("visibility check", () -> store.invisibleTxids(asked));
      if (waiting.isEmpty()) {
        return;
      }
      if (!warned && config.ticker().read() - since > VISIBILITY_WARNING.toNanos()) {
        warned = true;
        log.warn(
            "{} - {} committed transactions still not visible after {}; waiting",
            config.name(),
            waiting.size(),
            VISIBILITY_WARNING);
      }
      retry.pause(VISIBILITY_POLL);
    }
  }

  /**
   * Publishes the rows, skipping those of {@code toCheck} that are no longer pending (read first);
   * on an outage retries with backoff, never skipping, reading every row again before each retry.
   */
  void publishUntilDone(List<PendingRow> rows, Set<UUID> toCheck) throws InterruptedException {
    int attempt = 0;
    Set<UUID> check = toCheck;
    while (!rows.isEmpty()) {
      Duration delay = retry.delay(++attempt);
      try {
        rows = stillPending(rows, check);
        KeyDelivery.Applied applied = publishing.publish(rows, true);
        if (applied.outcome() == PublishOutcome.PROGRESS) {
          return;
        }
        publishing.retrying(applied, attempt, delay);
      } catch (SQLException e) {
        log.warn("{} - database error, retrying: {}", config.name(), e.getMessage());
      }
      check = rows.stream().map(PendingRow::id).collect(Collectors.toSet());
      retry.pause(delay);
    }
  }

  private List<PendingRow> stillPending(List<PendingRow> rows, Set<UUID> check)
      throws SQLException {
    if (check.isEmpty()) {
      return rows;
    }
    Set<UUID> pending =
        store.stillPending(rows.stream().map(PendingRow::id).filter(check::contains).toList());
    return rows.stream().filter(r -> !check.contains(r.id()) || pending.contains(r.id())).toList();
  }

  /**
   * Publishes catch-up rows, then writes their published log ({@link PositionWrites}: while the
   * next batch goes out). No position is stored before the fence (the stream's batches there are
   * not marked), so no offset save takes the log with it: without this a kill in a long catch-up
   * would send again every row it had published, not only the batches in flight.
   */
  void publishLogged(List<PendingRow> rows) throws InterruptedException {
    publishUntilDone(rows, Set.of());
    writes.write(this::writeLog);
  }

  /** On the write thread: the published log, retried while the database fails. */
  private void writeLog() throws InterruptedException {
    while (!published.isEmpty()) {
      retry.untilDone(
          "published log write",
          () -> {
            store.writeLog(published);
            return null;
          });
    }
  }

  /**
   * The published batches the position's save did not take (a failed flush, a user's offset store):
   * logged now, before the next position can be stored without them. If this fails too, they go
   * with the next save, or with the next {@link LoggedMarks#flush}.
   */
  void logLeftovers() {
    if (published.isEmpty()) {
      return;
    }
    try {
      store.writeLog(published);
    } catch (SQLException e) {
      log.debug("{} - published log not written yet: {}", config.name(), e.getMessage());
    }
  }
}
