package dev.outboxrelay.publisher.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.BrokerCheck.Probe;
import dev.outboxrelay.core.PublisherFactory;
import dev.outboxrelay.core.TopicTemplate;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaPublisherFactoryTest {

  @Test
  void requestLimitIsMaxRequestSizeOrTheProducersDefault() {
    KafkaPublisherFactory f = new KafkaPublisherFactory();
    assertThat(f.requestLimit(Map.of()))
        .contains(new PublisherFactory.RequestLimit("max.request.size", 1024 * 1024));
    assertThat(f.requestLimit(Map.of("max.request.size", "524288")))
        .contains(new PublisherFactory.RequestLimit("max.request.size", 524288));
    assertThat(f.requestLimit(Map.of("max.request.size", "1MB"))).isEmpty();
    assertThat(PublisherFactory.find("kafka", getClass().getClassLoader())).isPresent();
    assertThat(PublisherFactory.find("carrier-pigeon", getClass().getClassLoader())).isEmpty();
  }

  @Test
  void itsBrokerCheckUsesThePublishersTemplateAndProbesTheBootstrapServers() {
    KafkaPublisherFactory f = new KafkaPublisherFactory();
    try (BrokerCheck check =
            f.brokerCheck(Map.of("bootstrap.servers", "127.0.0.1:1")).orElseThrow();
        BrokerCheck custom =
            f.brokerCheck(
                    Map.of(
                        "bootstrap.servers", "127.0.0.1:1", "topic-template", "t.${aggregatetype}"))
                .orElseThrow()) {
      assertThat(check.topics()).isEqualTo(TopicTemplate.defaultTemplate());
      assertThat(custom.topics()).isEqualTo(TopicTemplate.of("t.${aggregatetype}"));
      assertThat(check.target()).isEqualTo("kafka bootstrap.servers 127.0.0.1:1");
      // Nothing listens on port 1: no answer, an outage to wait out (not a refusal).
      assertThat(check.probe(Duration.ofMillis(300)).outcome()).isEqualTo(Probe.Outcome.NO_ANSWER);
    }
  }
}
