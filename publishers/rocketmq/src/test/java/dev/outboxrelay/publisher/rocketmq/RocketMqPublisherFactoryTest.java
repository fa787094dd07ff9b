package dev.outboxrelay.publisher.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.BrokerCheck.Probe;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.Test;

class RocketMqPublisherFactoryTest {

  @Test
  void isFoundByItsName() {
    assertThat(ServiceLoader.load(PublisherFactory.class).stream().map(p -> p.get().name()))
        .contains("rocketmq");
  }

  @Test
  void invalidSettingsAreNamed() {
    RocketMqPublisherFactory f = new RocketMqPublisherFactory();
    assertThatThrownBy(() -> f.create(Map.of("topic-template", "outbox.${aggregatetype}")))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith("topicTemplate must give valid topic names");
    assertThatThrownBy(() -> f.create(Map.of("max-attempts", "many")))
        .hasMessage("max-attempts must be a whole number, but was 'many'");
    assertThatThrownBy(() -> f.create(Map.of("accept-send-statuses", "FLUSH_DISK_TIMEOUT,LATE")))
        .hasMessageStartingWith("accept-send-statuses must list SendStatus names");
    assertThatThrownBy(() -> f.create(Map.of("producerGroup", "g")))
        .hasMessage("namesrvAddr must be set, but was null");
  }

  @Test
  void validateRefusesWhatCreateRefusesWithoutANameServer() {
    RocketMqPublisherFactory f = new RocketMqPublisherFactory();
    Map<String, String> ok = Map.of("namesrvAddr", "127.0.0.1:1");
    f.validate(ok); // nothing listens there: validate connects to nothing
    assertThatThrownBy(
            () -> f.validate(Map.of("namesrvAddr", "127.0.0.1:1", "sendMsgTimeout", "0")))
        .hasMessage("sendMsgTimeout must be between 1 and 300000, but was 0");
    assertThatThrownBy(
            () -> f.validate(Map.of("namesrvAddr", "127.0.0.1:1", "secretKey", "s3cr3t")))
        .hasMessageNotContaining("s3cr3t")
        .hasMessageStartingWith("accessKey must be set with the other ACL credential");
    assertThatThrownBy(() -> f.validate(Map.of("namesrvAddr", "127.0.0.1:1", "secertKey", "s3")))
        .hasMessage("secertKey is not a setting of RocketMQ's DefaultMQProducer");
    assertThat(f.topicProblem("outbox.dead")).isPresent();
    assertThat(f.topicProblem("outbox-dead")).isEmpty();
  }

  @Test
  void requestLimitIsMaxMessageSizeOrTheClientsDefault() {
    RocketMqPublisherFactory f = new RocketMqPublisherFactory();
    assertThat(new DefaultMQProducer().getMaxMessageSize())
        .isEqualTo(RocketMqPublisherFactory.DEFAULT_MAX_MESSAGE_SIZE);
    assertThat(f.requestLimit(Map.of()))
        .contains(new PublisherFactory.RequestLimit("maxMessageSize", 4L * 1024 * 1024));
    assertThat(f.requestLimit(Map.of("maxMessageSize", " 65536 ")))
        .contains(new PublisherFactory.RequestLimit("maxMessageSize", 65536));
    assertThat(f.requestLimit(Map.of("maxMessageSize", "big"))).isEmpty();
    assertThat(PublisherFactory.find("rocketmq", getClass().getClassLoader())).isPresent();
  }

  @Test
  void itsBrokerCheckUsesThePublishersTemplateAndProbesTheNameServers() {
    RocketMqPublisherFactory f = new RocketMqPublisherFactory();
    try (BrokerCheck check = f.brokerCheck(Map.of("namesrvAddr", "127.0.0.1:1")).orElseThrow();
        BrokerCheck custom =
            f.brokerCheck(
                    Map.of("namesrvAddr", "127.0.0.1:1", "topic-template", "t_${aggregatetype}"))
                .orElseThrow()) {
      assertThat(check.topics())
          .isEqualTo(TopicTemplate.of(RocketMqPublisherBuilder.DEFAULT_TOPIC_TEMPLATE));
      assertThat(custom.topics()).isEqualTo(TopicTemplate.of("t_${aggregatetype}"));
      assertThat(check.target()).isEqualTo("rocketmq namesrvAddr 127.0.0.1:1");
      // Nothing listens on port 1: no answer, an outage to wait out (not a refusal).
      assertThat(check.probe(Duration.ofMillis(300)).outcome()).isEqualTo(Probe.Outcome.NO_ANSWER);
    }
  }
}
