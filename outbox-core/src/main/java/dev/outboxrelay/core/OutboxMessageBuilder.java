package dev.outboxrelay.core;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/** Builds an {@link OutboxMessage}; validation happens in {@link #build()}. Not thread-safe. */
public final class OutboxMessageBuilder {
  /** Longest aggregatetype, aggregateid and type: the width of their columns. */
  public static final int MAX_FIELD_LENGTH = 255;

  private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final Pattern TRACEPARENT =
      Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");

  UUID id;
  private boolean idGiven; // else build() draws one: rows a relay reads always give theirs
  String aggregateType;
  String aggregateId;
  String type;
  byte[] payload;
  final Map<String, String> headers = new LinkedHashMap<>();
  String traceparent;
  Long sequence;
  Instant createdAt;

  OutboxMessageBuilder() {}

  OutboxMessageBuilder(OutboxMessage m) {
    id(m.id());
    aggregateType = m.aggregateType();
    aggregateId = m.aggregateId();
    type = m.type();
    payload = m.payload();
    headers.putAll(m.headers());
    traceparent = m.traceparent().orElse(null);
    sequence = m.sequence().isPresent() ? m.sequence().getAsLong() : null;
    createdAt = m.createdAt().orElse(null);
  }

  /**
   * The message id, the dedup key downstream. Default: a time-ordered UUID of version 7 ({@link
   * MessageIds#next()}).
   */
  public OutboxMessageBuilder id(UUID id) {
    this.id = id;
    this.idGiven = true;
    return this;
  }

  /** Routing: the topic template is applied to it. Required. */
  public OutboxMessageBuilder aggregateType(String aggregateType) {
    this.aggregateType = aggregateType;
    return this;
  }

  /** The broker key and the ordering key. Required. */
  public OutboxMessageBuilder aggregateId(String aggregateId) {
    this.aggregateId = aggregateId;
    return this;
  }

  /** The event type. Required. */
  public OutboxMessageBuilder type(String type) {
    this.type = type;
    return this;
  }

  /** The body, copied. Required; may be empty. */
  public OutboxMessageBuilder payload(byte[] payload) {
    this.payload = payload == null ? null : payload.clone();
    return this;
  }

  /** The body as UTF-8 text. */
  public OutboxMessageBuilder payload(String payload) {
    this.payload = payload == null ? null : payload.getBytes(StandardCharsets.UTF_8);
    return this;
  }

  /**
   * Adds a user header. Names match {@code [A-Za-z0-9][A-Za-z0-9._-]*} (at most 128 characters);
   * {@code id}, {@code type} and {@code aggregatetype} are reserved for the relay; a header named
   * {@code traceparent} sets {@link #traceparent(String)}.
   */
  public OutboxMessageBuilder header(String name, String value) {
    if (MessageContract.HEADER_TRACEPARENT.equals(name)) {
      return traceparent(value);
    }
    headers.put(name, value);
    return this;
  }

  /** Removes a user header, if present (e.g. a copy that must not repeat a promise). */
  public OutboxMessageBuilder removeHeader(String name) {
    headers.remove(name);
    return this;
  }

  /** Adds every entry as by {@link #header(String, String)}. */
  public OutboxMessageBuilder headers(Map<String, String> headers) {
    headers.forEach(this::header);
    return this;
  }

  /** W3C trace context ({@code 00-<32 hex>-<16 hex>-<2 hex>}). Default: none. */
  public OutboxMessageBuilder traceparent(String traceparent) {
    this.traceparent = traceparent;
    return this;
  }

  /** Set by relays from the table's sequence column. */
  public OutboxMessageBuilder sequence(long sequence) {
    this.sequence = sequence;
    return this;
  }

  /** Set by relays from the table's created column. */
  public OutboxMessageBuilder createdAt(Instant createdAt) {
    this.createdAt = createdAt;
    return this;
  }

  /**
   * Validates and builds.
   *
   * @throws InvalidMessageException naming the first invalid field
   */
  public OutboxMessage build() {
    if (!idGiven) {
      id(MessageIds.next());
    }
    if (id == null) {
      throw new InvalidMessageException("id", "must not be null");
    }
    requireText("aggregatetype", aggregateType);
    requireText("aggregateid", aggregateId);
    requireText("type", type);
    if (payload == null) {
      throw new InvalidMessageException("payload", "must not be null (use an empty payload)");
    }
    headers.forEach(OutboxMessageBuilder::checkHeader);
    if (traceparent != null && !TRACEPARENT.matcher(traceparent).matches()) {
      throw new InvalidMessageException(
          "traceparent", "must be a W3C traceparent like 00-<32 hex>-<16 hex>-<2 hex>");
    }
    return new OutboxMessage(this);
  }

  private static void requireText(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new InvalidMessageException(field, "must not be null or blank");
    }
    if (value.length() > MAX_FIELD_LENGTH) {
      throw new InvalidMessageException(
          field, "must be at most " + MAX_FIELD_LENGTH + " characters, but was " + value.length());
    }
  }

  private static void checkHeader(String name, String value) {
    if (name == null || !HEADER_NAME.matcher(name).matches()) {
      throw new InvalidMessageException(
          "headers", "name " + quoted(name) + " must match [A-Za-z0-9][A-Za-z0-9._-]{0,127}");
    }
    if (MessageContract.RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
      throw new InvalidMessageException(
          "headers." + name, "is reserved: the relay sets it from the message");
    }
    if (value == null) {
      throw new InvalidMessageException("headers." + name, "must not have a null value");
    }
  }

  private static String quoted(String s) {
    return s == null ? "null" : "'" + s + "'";
  }
}
