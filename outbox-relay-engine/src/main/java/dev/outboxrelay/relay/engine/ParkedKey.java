package dev.outboxrelay.relay.engine;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A key stopped at a message the broker would not accept, and why; {@code deadLetteredAt} is when
 * that message was copied to the relay's dead-letter topic for this parking (null if not, or if the
 * relay has no dead-letter topic).
 */
public record ParkedKey(
    String aggregateId,
    UUID messageId,
    int bucket,
    String reason,
    Instant parkedAt,
    Instant deadLetteredAt) {

  /** A key not copied to a dead-letter topic. */
  public ParkedKey(
      String aggregateId, UUID messageId, int bucket, String reason, Instant parkedAt) {
    this(aggregateId, messageId, bucket, reason, parkedAt, null);
  }

  /** When the parked message was copied to the dead-letter topic, if it was. */
  public Optional<Instant> deadLettered() {
    return Optional.ofNullable(deadLetteredAt);
  }
}
