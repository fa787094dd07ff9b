package dev.outboxrelay.it;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.relay.engine.DiscardedMessage;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.relay.engine.ParkedKey;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.testing.RelayContract;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.sql.Connection;
import java.util.List;
import javax.sql.DataSource;

/**
 * The relay contract with our writer, schema and operator actions; subclasses bind a broker (Kafka,
 * RocketMQ) and a database, and start the polling relay unless they override {@link #startRelay}.
 */
public abstract class OutboxRelayContract extends RelayContract {
  /** The broker's limit in these tests; twice this size is a poison message. */
  protected static final int MAX_MESSAGE_SIZE = 256 * 1024;

  private final Outbox outbox =
      Outbox.builder().table(table()).maxPayloadBytes(4 * MAX_MESSAGE_SIZE).build();

  @Override
  protected void createOutbox(Connection c) {
    OutboxSchema.createIfMissing(c, table());
  }

  @Override
  protected void save(Connection c, List<OutboxMessage> messages) {
    outbox.saveAll(c, messages);
  }

  @Override
  protected Relay startRelay(String name, DataSource ds, Publisher publisher) {
    return Relays.polling(name, ds, publisher, table());
  }

  @Override
  protected int oversizedPayloadBytes() {
    return 2 * MAX_MESSAGE_SIZE;
  }

  @Override
  protected List<String> parkedKeys(DataSource ds) {
    return OutboxAdmin.of(ds, table()).parked().stream().map(ParkedKey::aggregateId).toList();
  }

  @Override
  protected void discardParked(DataSource ds, String key) {
    OutboxAdmin.of(ds, table()).discardParked(key, Retention.deleteImmediately());
  }

  @Override
  protected List<java.util.UUID> discardedMessages(DataSource ds) {
    return OutboxAdmin.of(ds, table()).discarded().stream()
        .map(DiscardedMessage::messageId)
        .toList();
  }
}
