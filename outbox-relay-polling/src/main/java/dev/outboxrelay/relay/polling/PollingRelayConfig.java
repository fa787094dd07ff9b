package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.engine.EngineSettings;
import dev.outboxrelay.relay.engine.KeyBackoffs;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.engine.Ticker;
import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import javax.sql.DataSource;

/** The validated settings of one relay. */
record PollingRelayConfig(
    String name,
    DataSource dataSource,
    Publisher publisher,
    OutboxTable table,
    int batchSize,
    int inFlightBatches,
    Duration pollInterval,
    Duration leaseDuration,
    Duration publishTimeout,
    Duration backoffInitial,
    Duration backoffMax,
    Retention retention,
    boolean strictOrder,
    boolean listenNotify,
    java.util.Optional<String> deadLetterTopic,
    RelayListener listener,
    Ticker ticker)
    implements EngineSettings {

  /** Exponential backoff with jitter (factor 2, randomisation 0.5), bounded by backoffMax. */
  @Override
  public IntervalFunction backoff() {
    return KeyBackoffs.exponential(backoffInitial, backoffMax);
  }
}
