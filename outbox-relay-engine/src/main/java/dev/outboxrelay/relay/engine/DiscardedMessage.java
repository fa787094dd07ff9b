package dev.outboxrelay.relay.engine;

import java.time.Instant;
import java.util.UUID;

/**
 * A parked message an operator chose not to send: reconciliation counts it as discarded, not
 * missing, and never publishes it again.
 *
 * @param reason why its key was parked (the broker's refusal)
 * @param discardedBy who discarded it, as the operator tool gave it (e.g. {@code user@host})
 * @param discardedAt when, on the database clock
 */
public record DiscardedMessage(
    UUID messageId, String aggregateId, String reason, String discardedBy, Instant discardedAt) {}
