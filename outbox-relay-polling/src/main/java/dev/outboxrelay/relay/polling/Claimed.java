package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxMessage;
import java.util.UUID;

/** A claimed row: the message, or why the row could not be read (a malformed row). */
record Claimed(UUID id, String aggregateId, int bucket, OutboxMessage message, String malformed) {}
