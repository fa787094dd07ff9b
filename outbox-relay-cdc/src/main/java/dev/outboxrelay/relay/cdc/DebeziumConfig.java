package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.relay.cdc.internal.debezium.EngineProperties;
import java.util.Properties;

/**
 * Hands the relay's validated settings to {@link EngineProperties}, which holds the engine's
 * settings and why each is set. Invariant: every setting the engine's settings are made from comes
 * from the one {@link CdcRelayConfig} the relay was built with.
 */
final class DebeziumConfig {
  private DebeziumConfig() {}

  /** The engine's settings for {@code c}; {@code sql} is not read. */
  static Properties of(CdcRelayConfig c, CdcSql sql) {
    return EngineProperties.of(
        new EngineProperties.Inputs(
            c.name(),
            c.slotName(),
            c.jdbcUrl(),
            c.user(),
            c.password(),
            c.source(),
            c.table(),
            c.pollInterval(),
            c.batchSize(),
            c.debezium()));
  }
}
