package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.cdc.CdcRelayBuilder;
import dev.outboxrelay.relay.engine.Retention;
import javax.sql.DataSource;
import org.springframework.core.env.Environment;

/**
 * Builds the CDC relay from properties. Only loaded in {@code cdc} mode, so outbox-relay-cdc (and
 * Debezium) stay optional.
 */
final class CdcRelayFactory {
  static final String CLASS = "dev.outboxrelay.relay.cdc.CdcRelay";

  private CdcRelayFactory() {}

  static Relay cdc(
      OutboxProperties.Relay p,
      String name,
      Environment env,
      DataSource dataSource,
      OutboxTable table,
      Publisher publisher,
      RelayListener listener) {
    OutboxProperties.Cdc cdc = p.getCdc();
    String url = cdc.getUrl() != null ? cdc.getUrl() : env.getProperty("spring.datasource.url");
    if (url == null) {
      throw new OutboxConfigException(
          "outbox.relay.cdc.url", null, "is required in cdc mode (or spring.datasource.url)");
    }
    String user =
        cdc.getUsername() != null
            ? cdc.getUsername()
            : env.getProperty("spring.datasource.username", "");
    String password =
        cdc.getPassword() != null
            ? cdc.getPassword()
            : env.getProperty("spring.datasource.password", "");
    CdcRelayBuilder b =
        CdcRelay.builder()
            .name(name)
            .source(url, user, password)
            .dataSource(dataSource)
            .publisher(publisher)
            .table(table)
            .publishTimeout(p.getPublishTimeout())
            .backoff(p.getBackoffInitial(), p.getBackoffMax())
            .debeziumProperties(cdc.getDebezium())
            .deadLetterTopic(p.getDeadLetterTopic())
            .listener(listener);
    if (p.getBatchSize() != null) {
      b.batchSize(p.getBatchSize());
    }
    if (p.getPollInterval() != null) {
      b.pollInterval(p.getPollInterval());
    }
    if (p.getKeepFor() != null) {
      b.retention(Retention.keepFor(p.getKeepFor()));
    }
    return b.build();
  }
}
