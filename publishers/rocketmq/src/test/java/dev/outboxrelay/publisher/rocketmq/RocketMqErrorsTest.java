package dev.outboxrelay.publisher.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.NonRetriablePublishException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.RetriablePublishException;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.remoting.exception.RemotingConnectException;
import org.apache.rocketmq.remoting.exception.RemotingTimeoutException;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.junit.jupiter.api.Test;

class RocketMqErrorsTest {
  private static final OutboxMessage M =
      OutboxMessage.builder()
          .aggregateType("order")
          .aggregateId("o-1")
          .type("Placed")
          .payload("{}")
          .build();

  @Test
  void anIllegalMessageIsNeverAccepted() {
    assertThat(
            RocketMqErrors.map(M, new MQClientException(ResponseCode.MESSAGE_ILLEGAL, "too big")))
        .isInstanceOf(NonRetriablePublishException.class)
        .hasMessageContaining(M.id().toString())
        .hasMessageContaining("code 13: too big");
    assertThat(RocketMqErrors.map(M, new MQBrokerException(ResponseCode.MESSAGE_ILLEGAL, "x")))
        .isInstanceOf(NonRetriablePublishException.class);
  }

  @Test
  void outagesBusyBrokersAndPermissionsAreRetriable() {
    for (int code :
        new int[] {
          ResponseCode.SYSTEM_BUSY,
          ResponseCode.SYSTEM_ERROR,
          ResponseCode.SERVICE_NOT_AVAILABLE,
          ResponseCode.TOPIC_NOT_EXIST,
          ResponseCode.NO_PERMISSION
        }) {
      assertThat(RocketMqErrors.map(M, new MQBrokerException(code, "remark")))
          .as("code %d", code)
          .isInstanceOf(RetriablePublishException.class);
    }
    assertThat(RocketMqErrors.map(M, new RemotingConnectException("127.0.0.1:1")))
        .isInstanceOf(RetriablePublishException.class);
  }

  @Test
  void anUnreachableBrokerIsToldApartByType() {
    assertThat(RocketMqErrors.unreachable(new RemotingConnectException("127.0.0.1:1"))).isTrue();
    assertThat(RocketMqErrors.unreachable(new RemotingTimeoutException("slow"))).isTrue();
    assertThat(RocketMqErrors.unreachable(new MQClientException("No route info", null))).isTrue();
    assertThat(RocketMqErrors.unreachable(new MQBrokerException(ResponseCode.SYSTEM_BUSY, "busy")))
        .isFalse();
  }
}
