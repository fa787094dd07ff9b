package dev.outboxrelay.spring;

import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.relay.polling.PollingRelayBuilder;
import javax.sql.DataSource;

/** Builds the polling relay from properties; the CDC relay is in {@link CdcRelayFactory}. */
final class RelayFactories {
  private RelayFactories() {}

  static Relay polling(
      OutboxProperties.Relay p,
      String name,
      DataSource dataSource,
      OutboxTable table,
      Publisher publisher,
      RelayListener listener) {
    PollingRelayBuilder b =
        PollingRelay.builder()
            .name(name)
            .dataSource(dataSource)
            .publisher(publisher)
            .table(table)
            .inFlightBatches(p.getInFlightBatches())
            .leaseDuration(p.getLeaseDuration())
            .publishTimeout(p.getPublishTimeout())
            .backoffInitial(p.getBackoffInitial())
            .backoffMax(p.getBackoffMax())
            .strictOrder(p.isStrictOrder())
            .listenNotify(p.isListenNotify())
            .deadLetterTopic(p.getDeadLetterTopic())
            .listener(listener)
            .retention(
                p.getKeepFor() == null
                    ? Retention.deleteImmediately()
                    : Retention.keepFor(p.getKeepFor()));
    if (p.getBatchSize() != null) {
      b.batchSize(p.getBatchSize());
    }
    if (p.getPollInterval() != null) {
      b.pollInterval(p.getPollInterval());
    }
    return b.build();
  }
}
