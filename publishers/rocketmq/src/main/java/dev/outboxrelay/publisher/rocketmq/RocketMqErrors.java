package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RetriablePublishException;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.apache.rocketmq.remoting.exception.RemotingSendRequestException;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;

/**
 * Maps RocketMQ's exceptions to the SPI's types by exception type and response code, never by
 * message text. Non-retriable: {@code MESSAGE_ILLEGAL} (body over {@code maxMessageSize}, empty
 * body, properties over 32 KiB), which no retry can change. Everything else is retriable: remoting
 * failures (broker down, timeouts), {@code SYSTEM_BUSY}, {@code SERVICE_NOT_AVAILABLE}, {@code
 * TOPIC_NOT_EXIST}, and {@code NO_PERMISSION}, which RocketMQ also answers for a failed
 * authentication and a write-disabled broker: an outage or a configuration fix must not park keys.
 */
final class RocketMqErrors {
  /** The code of client-side exceptions that carry none (no route, producer not running). */
  static final int NO_CODE = -1;

  private RocketMqErrors() {}

  static PublishException map(OutboxMessage m, Throwable error) {
    String what = "RocketMQ did not accept message " + m.id() + ": " + describe(error);
    return neverAccepted(error)
        ? new NonRetriablePublishException(what, error)
        : new RetriablePublishException(what, error);
  }

  static boolean neverAccepted(Throwable e) {
    return code(e) == ResponseCode.MESSAGE_ILLEGAL;
  }

  /** The broker could not be reached at all: later keys of the batch would fail the same way. */
  static boolean unreachable(Throwable e) {
    return e instanceof RemotingConnectException
        || e instanceof RemotingSendRequestException
        || e instanceof RemotingTimeoutException
        || (e instanceof MQClientException c && c.getResponseCode() == NO_CODE);
  }

  static int code(Throwable e) {
    if (e instanceof MQClientException c) {
      return c.getResponseCode();
    }
    if (e instanceof MQBrokerException b) {
      return b.getResponseCode();
    }
    return NO_CODE;
  }

  private static String describe(Throwable e) {
    String text =
        e instanceof MQClientException c
            ? c.getErrorMessage()
            : e instanceof MQBrokerException b ? b.getErrorMessage() : e.getMessage();
    int code = code(e);
    return e.getClass().getSimpleName() + (code == NO_CODE ? "" : " code " + code) + ": " + text;
  }
}
