package dev.outboxrelay.publisher.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishException;
import java.util.Set;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class SendStatusPolicyTest {
  private static final OutboxMessage M =
      OutboxMessage.builder()
          .aggregateType("order")
          .aggregateId("o-1")
          .type("Placed")
          .payload("{}")
          .build();

  private static SendResult result(SendStatus status) {
    return new SendResult(status, "uniq", "offsetId", new MessageQueue("t", "broker-a", 0), 7);
  }

  @Test
  void byDefaultOnlySendOkIsAcknowledgedAndTheRestIsRetried() {
    SendStatusPolicy policy = new SendStatusPolicy(Set.of());
    assertThat(policy.check(M, result(SendStatus.SEND_OK))).isNull();
    for (SendStatus s :
        Set.of(
            SendStatus.FLUSH_DISK_TIMEOUT,
            SendStatus.FLUSH_SLAVE_TIMEOUT,
            SendStatus.SLAVE_NOT_AVAILABLE)) {
      PublishException failure = policy.check(M, result(s));
      assertThat(failure).isNotNull();
      assertThat(failure.isRetriable()).isTrue();
      assertThat(failure.getMessage()).contains(M.id().toString(), s.name());
    }
  }

  @Test
  void acceptedStatusesCountAsAcknowledged() {
    SendStatusPolicy policy = new SendStatusPolicy(Set.of(SendStatus.FLUSH_DISK_TIMEOUT));
    assertThat(policy.check(M, result(SendStatus.FLUSH_DISK_TIMEOUT))).isNull();
    assertThat(policy.check(M, result(SendStatus.SEND_OK))).isNull();
    assertThat(policy.check(M, result(SendStatus.SLAVE_NOT_AVAILABLE))).isNotNull();
  }

  @Test
  void theBuilderStartsFromSendOkOnly() {
    RocketMqPublisherBuilder b = RocketMqPublisher.builder();
    assertThat(new SendStatusPolicy(b.accepted).accepted()).containsExactly(SendStatus.SEND_OK);
    b.acceptSendStatuses(SendStatus.SLAVE_NOT_AVAILABLE);
    assertThat(new SendStatusPolicy(b.accepted).accepted())
        .containsExactlyInAnyOrder(SendStatus.SEND_OK, SendStatus.SLAVE_NOT_AVAILABLE);
  }
}
