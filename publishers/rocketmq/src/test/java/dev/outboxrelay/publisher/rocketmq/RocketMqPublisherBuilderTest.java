package dev.outboxrelay.publisher.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
import java.util.Map;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.junit.jupiter.api.Test;

class RocketMqPublisherBuilderTest {

  private static RocketMqPublisherBuilder valid() {
    return RocketMqPublisher.builder().namesrvAddr("127.0.0.1:9876");
  }

  @Test
  void namesrvAddrIsRequired() {
    assertThatThrownBy(() -> RocketMqPublisher.builder().build())
        .isInstanceOf(OutboxConfigException.class)
        .hasMessage("namesrvAddr must be set, but was null");
  }

  @Test
  void rangesNameTheSettingAndTheValue() {
    assertThatThrownBy(() -> valid().maxAttempts(0))
        .hasMessage("maxAttempts must be between 1 and 10, but was 0");
    assertThatThrownBy(() -> valid().concurrency(65))
        .hasMessage("concurrency must be between 1 and 64, but was 65");
    assertThatThrownBy(() -> valid().maxMessageSize(0))
        .hasMessageStartingWith("maxMessageSize must be between 1 and");
    assertThatThrownBy(() -> valid().retryBackoff(Duration.ZERO))
        .hasMessage("retryBackoff must be between PT0.001S and PT10S, but was PT0S");
    assertThatThrownBy(() -> valid().sendTimeout(null))
        .hasMessage("sendTimeout must be between PT0.001S and PT5M, but was null");
  }

  @Test
  void topicTemplateMustGiveRocketMqTopicNames() {
    assertThatThrownBy(() -> valid().topicTemplate(TopicTemplate.defaultTemplate()))
        .isInstanceOf(OutboxConfigException.class)
        .hasMessageStartingWith("topicTemplate must give valid topic names, but 'outbox.event.a'")
        .hasMessageContaining("[%|a-zA-Z0-9_-]");
    assertThat(valid().topicTemplate(TopicTemplate.of("events_${aggregatetype}"))).isNotNull();
  }

  @Test
  void producerSettingsPassThroughByTheirClientNames() {
    RocketMqPublisherBuilder b =
        valid()
            .producerGroup("billing")
            .sendTimeout(Duration.ofSeconds(7))
            .maxMessageSize(1024)
            .producerProperties(
                Map.of("compressMsgBodyOverHowmuch", "8192", "vipChannelEnabled", "false"));
    DefaultMQProducer p = PublisherAssembly.producer(b);
    assertThat(p.getProducerGroup()).isEqualTo("billing");
    assertThat(p.getNamesrvAddr()).isEqualTo("127.0.0.1:9876");
    assertThat(p.getSendMsgTimeout()).isEqualTo(7000);
    assertThat(p.getMaxMessageSize()).isEqualTo(1024);
    assertThat(p.getCompressMsgBodyOverHowmuch()).isEqualTo(8192);
    assertThat(p.isVipChannelEnabled()).isFalse();
  }

  @Test
  void unknownOrMistypedProducerSettingsAreRefused() {
    assertThatThrownBy(() -> valid().producerProperty("sendTimeoutMs", 5))
        .hasMessage("sendTimeoutMs is not a setting of RocketMQ's DefaultMQProducer");
    // A misspelled secret is named, never echoed.
    assertThatThrownBy(() -> valid().producerProperty("secertKey", "canary-rmq"))
        .hasMessage("secertKey is not a setting of RocketMQ's DefaultMQProducer");
    assertThatThrownBy(
            () -> PublisherAssembly.producer(valid().producerProperty("sendMsgTimeout", "soon")))
        .hasMessage("sendMsgTimeout must be of type int, but was 'soon'");
    assertThatThrownBy(() -> PublisherAssembly.producer(valid().producerGroup("bad group!")))
        .hasMessageStartingWith("producerGroup must be at most 255 characters of [%|a-zA-Z0-9_-]");
  }

  @Test
  void credentialsComeInPairsAndAreNeverShown() {
    assertThatThrownBy(() -> valid().producerProperty("secretKey", " "))
        .hasMessage("secretKey must not be blank, but was ******");
    assertThatThrownBy(
            () -> PublisherAssembly.producer(valid().producerProperty("accessKey", "ak")))
        .hasMessage("secretKey must be set with the other ACL credential, but was ******");
    DefaultMQProducer p = PublisherAssembly.producer(valid().credentials("ak", "s3cr3t"));
    assertThat(p.getProducerGroup()).isEqualTo(RocketMqPublisherBuilder.DEFAULT_PRODUCER_GROUP);
  }
}
