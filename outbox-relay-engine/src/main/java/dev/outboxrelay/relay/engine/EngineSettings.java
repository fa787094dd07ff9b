package dev.outboxrelay.relay.engine;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What the engine needs from a relay's validated settings, whichever row source it is: each relay's
 * config implements it, so the engine's parts are built the same way for both. The settings both
 * relays have are held once, in {@link #core()}; the accessors here read them from there.
 */
public interface EngineSettings {
  /** The settings both relays have. */
  RelayCore core();

  /** The relay's name, in log lines and thread names. */
  default String name() {
    return core().name();
  }

  default DataSource dataSource() {
    return core().dataSource();
  }

  default Publisher publisher() {
    return core().publisher();
  }

  default OutboxTable table() {
    return core().table();
  }

  default Retention retention() {
    return core().retention();
  }

  default int batchSize() {
    return core().batchSize();
  }

  default Duration pollInterval() {
    return core().pollInterval();
  }

  /** The longest a published round waits for its acknowledgements. */
  default Duration publishTimeout() {
    return core().publishTimeout();
  }

  /** Attempt number (from 1) to delay in milliseconds: {@link KeyBackoffs#exponential}. */
  default IntervalFunction backoff() {
    return core().backoff();
  }

  default Optional<String> deadLetterTopic() {
    return core().deadLetterTopic();
  }

  default RelayListener listener() {
    return core().listener();
  }

  default Ticker ticker() {
    return core().ticker();
  }
}
