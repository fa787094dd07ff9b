package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.relay.cdc.internal.debezium.SourceDatabase;
import dev.outboxrelay.relay.engine.RelayBuilder;
import dev.outboxrelay.relay.engine.RelayCore;
import dev.outboxrelay.relay.engine.Retention;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Configures a {@link CdcRelay}: the settings both relays have come from {@link RelayBuilder}, the
 * CDC relay's own are here. Settings are validated as they are given, by their declarations in
 * {@link CdcSettings} (which also hold the defaults). The batch size is Debezium's {@code
 * max.batch.size} (its {@code max.queue.size} is set to {@code max(8192, 4 × batchSize)}) and the
 * chunk of the start-up catch-up and of a drained key; a batch's write overlaps the next batch, so
 * {@code 2 × batchSize} bounds the duplicates per crash (default 2048, why: {@link
 * CdcSettings#BATCH_SIZE}). Not thread-safe.
 */
public final class CdcRelayBuilder extends RelayBuilder<CdcRelayBuilder> {
  private String jdbcUrl;
  private String user;
  private String password = "";
  private final Properties debezium = new Properties();

  CdcRelayBuilder() {
    super(CdcSettings.NAME, CdcSettings.BATCH_SIZE, CdcSettings.POLL_INTERVAL);
  }

  /**
   * The source database: {@code jdbc:postgresql|mariadb|mysql://host:port/db}, user, password (null
   * or empty: none). Required.
   */
  public CdcRelayBuilder source(String jdbcUrl, String user, String password) {
    SourceDatabase.parse(jdbcUrl);
    this.jdbcUrl = jdbcUrl;
    this.user = Objects.requireNonNull(user, "user");
    this.password = password == null ? "" : password;
    return this;
  }

  /**
   * Keep published rows for a replay window: {@code retention(Retention.keepFor(window))}; at least
   * 1 ms.
   *
   * @deprecated use {@link #retention(Retention)}, the polling relay's spelling
   */
  @Deprecated
  public CdcRelayBuilder keepPublishedFor(Duration window) {
    return retention(Retention.keepFor(CdcSettings.KEEP_PUBLISHED_FOR.check(window)));
  }

  /**
   * Debezium settings passed through; they override the relay's, except {@code max.batch.size} (set
   * {@link #batchSize}, which bounds duplicates) and a {@code max.queue.size} not larger than the
   * batch size, both refused at {@link #build()}.
   */
  public CdcRelayBuilder debeziumProperties(Map<?, ?> settings) {
    settings.forEach((k, v) -> debezium.setProperty(String.valueOf(k), String.valueOf(v)));
    return this;
  }

  /**
   * Builds the relay (not started).
   *
   * @throws OutboxConfigException if the source, data source or publisher is missing, the backoff
   *     bounds are inverted, the Debezium settings would break the bound on duplicates, or the
   *     publisher cannot send to the dead-letter topic
   */
  public CdcRelay build() {
    if (jdbcUrl == null) {
      throw new OutboxConfigException("source", null, "is required");
    }
    RelayCore core = core();
    checkDebeziumBatching();
    return new CdcRelay(new CdcRelayConfig(core, jdbcUrl, user, password, debezium));
  }

  private void checkDebeziumBatching() {
    if (debezium.containsKey("max.batch.size")) {
      throw new OutboxConfigException(
          "debeziumProperties.max.batch.size",
          debezium.getProperty("max.batch.size"),
          "is set by the relay from batchSize ("
              + batchSize()
              + "), which bounds duplicates; set"
              + " batchSize instead");
    }
    String queue = debezium.getProperty("max.queue.size");
    if (queue != null
        && !(queue.trim().matches("\\d{1,9}") && Integer.parseInt(queue.trim()) > batchSize())) {
      throw new OutboxConfigException(
          "debeziumProperties.max.queue.size",
          queue,
          "must be a whole number larger than batchSize (" + batchSize() + ")");
    }
  }
}
