package dev.outboxrelay.relay.cdc;

import dev.outboxrelay.core.OutboxMessage;
import java.util.UUID;

/** An outbox row to publish: the message, or why it could not be read (a malformed row). */
record Row(UUID id, String aggregateId, int bucket, OutboxMessage message, String malformed) {}
