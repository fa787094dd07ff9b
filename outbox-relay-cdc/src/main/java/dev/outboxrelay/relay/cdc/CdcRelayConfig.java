package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.cdc.internal.debezium.SourceDatabase;
import dev.outboxrelay.relay.engine.EngineSettings;
import dev.outboxrelay.relay.engine.RelayCore;
import java.util.Locale;
import java.util.Properties;

/** The validated settings of one CDC relay: the shared ones in {@code core}, and its own. */
record CdcRelayConfig(
    RelayCore core, String jdbcUrl, String user, String password, Properties debezium)
    implements EngineSettings {

  SourceDatabase source() {
    return SourceDatabase.parse(jdbcUrl);
  }

  /** Whether the source is read from a binlog (MySQL/MariaDB), not PostgreSQL's WAL. */
  boolean binlog() {
    return source().dialect() != SqlDialect.POSTGRESQL;
  }

  boolean keepRows() {
    return retention().keepsRows();
  }

  /** The name as a PostgreSQL slot / topic prefix: lower case letters, digits, underscores. */
  String slotName() {
    return name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
  }
}
