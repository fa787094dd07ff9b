package dev.outboxrelay.publisher.kafka;

import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RetriablePublishException;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

/**
 * Maps Kafka's exceptions to the SPI's types. Non-retriable: the message itself can never be
 * accepted (too large, invalid, topic name invalid, not authorised for the topic). Everything else
 * (timeouts, broker down, leader changes, authentication) is retriable with backoff: an outage or a
 * configuration fix must not park keys.
 */
final class KafkaErrors {
  private KafkaErrors() {}

  static PublishException map(OutboxMessage m, Throwable error) {
    String what =
        "Kafka rejected message "
            + m.id()
            + ": "
            + error.getClass().getSimpleName()
            + ": "
            + error.getMessage();
    return neverAccepted(error)
        ? new NonRetriablePublishException(what, error)
        : new RetriablePublishException(what, error);
  }

  static boolean neverAccepted(Throwable e) {
    return e instanceof RecordTooLargeException
        || e instanceof RecordBatchTooLargeException
        || e instanceof InvalidRecordException
        || e instanceof InvalidTopicException
        || e instanceof AuthorizationException
        || e instanceof SerializationException
        || e instanceof PolicyViolationException
        || e instanceof UnsupportedVersionException;
  }
}
