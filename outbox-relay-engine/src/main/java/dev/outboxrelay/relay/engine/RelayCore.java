package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The validated settings both relays have, held once by each relay's config ({@link
 * EngineSettings#core()}); made by {@link RelayBuilder}, so every value here passed its {@code
 * Setting}'s rule and {@code backoffMax} is at least {@code backoffInitial}. Immutable.
 *
 * @param pollInterval the polling relay's longest idle wait; the CDC relay's Debezium {@code
 *     poll.interval.ms}
 * @param deadLetterTopic where a parked key's message is copied once; empty: off
 */
public record RelayCore(
    String name,
    DataSource dataSource,
    Publisher publisher,
    OutboxTable table,
    Retention retention,
    int batchSize,
    Duration pollInterval,
    Duration publishTimeout,
    Duration backoffInitial,
    Duration backoffMax,
    Optional<String> deadLetterTopic,
    RelayListener listener,
    Ticker ticker) {

  /** Exponential from {@code backoffInitial} (factor 2, jitter 0.5), bounded by backoffMax. */
  public IntervalFunction backoff() {
    return KeyBackoffs.exponential(backoffInitial, backoffMax);
  }
}
