package dev.outboxrelay.testing;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/** A message as a consumer saw it on the broker. */
public record ReceivedMessage(
    String topic, String key, Map<String, String> headers, byte[] payload, String position) {

  /** The outbox message id from the {@code id} header. */
  public UUID id() {
    return UUID.fromString(headers.get("id"));
  }

  public String payloadAsString() {
    return new String(payload, StandardCharsets.UTF_8);
  }
}
