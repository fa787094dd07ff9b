package dev.outboxrelay.publisher.rocketmq;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import dev.outboxrelay.core.RetriablePublishException;
import java.util.EnumSet;
import java.util.Set;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;

/**
 * Which {@link SendStatus} counts as acknowledged. {@code SEND_OK} always does. The others mean the
 * broker stored the message in memory but missed its durability promise: {@code FLUSH_DISK_TIMEOUT}
 * (a SYNC_FLUSH broker did not flush in time), {@code FLUSH_SLAVE_TIMEOUT} and {@code
 * SLAVE_NOT_AVAILABLE} (a SYNC_MASTER did not replicate). Unless accepted, they are retriable
 * failures: the publisher sends again, which may write a duplicate but never loses one.
 */
final class SendStatusPolicy {
  private final Set<SendStatus> accepted;

  SendStatusPolicy(Set<SendStatus> accepted) {
    this.accepted = EnumSet.of(SendStatus.SEND_OK);
    this.accepted.addAll(accepted);
  }

  /** Null if the result acknowledges the message, else the failure to report. */
  PublishException check(OutboxMessage m, SendResult result) {
    SendStatus status = result.getSendStatus();
    if (accepted.contains(status)) {
      return null;
    }
    return new RetriablePublishException(
        "RocketMQ stored message "
            + m.id()
            + " with status "
            + status
            + ", which is not counted as acknowledged (accepted: "
            + accepted
            + ")",
        null);
  }

  Set<SendStatus> accepted() {
    return EnumSet.copyOf(accepted);
  }
}
