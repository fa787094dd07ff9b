package dev.outboxrelay.relay.state;

import java.time.Instant;
import java.util.UUID;

/** A key stopped at a message the broker would not accept, and why. */
public record ParkedKey(
    String aggregateId, UUID messageId, int bucket, String reason, Instant parkedAt) {}
