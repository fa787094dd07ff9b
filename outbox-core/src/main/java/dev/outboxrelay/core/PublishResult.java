package dev.outboxrelay.core;

import java.util.Objects;
import java.util.Optional;

/** The outcome of publishing one message: acknowledged by the broker, or failed with a reason. */
public final class PublishResult {
  private final OutboxMessage message;
  private final PublishException failure;

  private PublishResult(OutboxMessage message, PublishException failure) {
    this.message = Objects.requireNonNull(message, "message");
    this.failure = failure;
  }

  /** The broker acknowledged the message. */
  public static PublishResult acknowledged(OutboxMessage message) {
    return new PublishResult(message, null);
  }

  /** The message was not acknowledged. */
  public static PublishResult failed(OutboxMessage message, PublishException failure) {
    return new PublishResult(message, Objects.requireNonNull(failure, "failure"));
  }

  public OutboxMessage message() {
    return message;
  }

  public boolean isAcknowledged() {
    return failure == null;
  }

  public Optional<PublishException> failure() {
    return Optional.ofNullable(failure);
  }

  @Override
  public String toString() {
    return message.id() + (failure == null ? " acknowledged" : " failed: " + failure.getMessage());
  }
}
