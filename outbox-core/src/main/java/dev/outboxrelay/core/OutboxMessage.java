package dev.outboxrelay.core;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * One outbox event: immutable and thread-safe. Build with {@link #builder()}; the builder rejects
 * invalid input with an {@link InvalidMessageException} naming the field.
 *
 * <p>{@code id} is the dedup key everywhere downstream; {@code aggregateid} is the broker key and
 * the ordering key. {@code sequence} and {@code createdAt} are assigned by the database and are
 * present only on messages read back from the table.
 */
public final class OutboxMessage {
  private final UUID id;
  private final String aggregateType;
  private final String aggregateId;
  private final String type;
  private final byte[] payload;
  private final Map<String, String> headers;
  private final String traceparent;
  private final Long sequence;
  private final Instant createdAt;

  OutboxMessage(OutboxMessageBuilder b) {
    this.id = b.id;
    this.aggregateType = b.aggregateType;
    this.aggregateId = b.aggregateId;
    this.type = b.type;
    this.payload = b.payload;
    this.headers = Map.copyOf(b.headers);
    this.traceparent = b.traceparent;
    this.sequence = b.sequence;
    this.createdAt = b.createdAt;
  }

  /** A new builder; {@code id} defaults to a random UUID. */
  public static OutboxMessageBuilder builder() {
    return new OutboxMessageBuilder();
  }

  /** A builder initialised with this message's fields. */
  public OutboxMessageBuilder toBuilder() {
    return new OutboxMessageBuilder(this);
  }

  public UUID id() {
    return id;
  }

  public String aggregateType() {
    return aggregateType;
  }

  public String aggregateId() {
    return aggregateId;
  }

  public String type() {
    return type;
  }

  /** A copy of the body. */
  public byte[] payload() {
    return payload.clone();
  }

  public int payloadSize() {
    return payload.length;
  }

  /** The body decoded as UTF-8. */
  public String payloadAsString() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  /** User headers, without the contract headers the relay adds ({@link MessageContract}). */
  public Map<String, String> headers() {
    return headers;
  }

  /** The W3C trace context of the writing transaction, when there was one. */
  public Optional<String> traceparent() {
    return Optional.ofNullable(traceparent);
  }

  /** The database-assigned sequence (insertion order), when read from the table. */
  public OptionalLong sequence() {
    return sequence == null ? OptionalLong.empty() : OptionalLong.of(sequence);
  }

  /** Creation time on the database clock, when read from the table. */
  public Optional<Instant> createdAt() {
    return Optional.ofNullable(createdAt);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OutboxMessage m
        && id.equals(m.id)
        && aggregateType.equals(m.aggregateType)
        && aggregateId.equals(m.aggregateId)
        && type.equals(m.type)
        && Arrays.equals(payload, m.payload)
        && headers.equals(m.headers)
        && Objects.equals(traceparent, m.traceparent)
        && Objects.equals(sequence, m.sequence)
        && Objects.equals(createdAt, m.createdAt);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }

  /** Identifies the message without its payload or headers, which may be sensitive. */
  @Override
  public String toString() {
    return "OutboxMessage{id="
        + id
        + ", aggregatetype="
        + aggregateType
        + ", aggregateid="
        + aggregateId
        + ", type="
        + type
        + ", payloadSize="
        + payload.length
        + "}";
  }
}
