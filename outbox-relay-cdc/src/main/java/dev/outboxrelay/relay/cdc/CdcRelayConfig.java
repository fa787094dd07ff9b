package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.cdc.internal.debezium.SourceDatabase;
import dev.outboxrelay.relay.engine.EngineSettings;
import dev.outboxrelay.relay.engine.KeyBackoffs;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.engine.Ticker;
import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import javax.sql.DataSource;

/** The validated settings of one CDC relay. */
record CdcRelayConfig(
    String name,
    String jdbcUrl,
    String user,
    String password,
    DataSource dataSource,
    Publisher publisher,
    OutboxTable table,
    Retention retention,
    int batchSize,
    Duration pollInterval,
    Duration publishTimeout,
    Duration backoffInitial,
    Duration backoffMax,
    Properties debezium,
    java.util.Optional<String> deadLetterTopic,
    RelayListener listener,
    Ticker ticker)
    implements EngineSettings {

  SourceDatabase source() {
    return SourceDatabase.parse(jdbcUrl);
  }

  boolean keepRows() {
    return retention.keepsRows();
  }

  /** The name as a PostgreSQL slot / topic prefix: lower case letters, digits, underscores. */
  String slotName() {
    return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
  }

  @Override
  public IntervalFunction backoff() {
    return KeyBackoffs.exponential(backoffInitial, backoffMax);
  }
}
