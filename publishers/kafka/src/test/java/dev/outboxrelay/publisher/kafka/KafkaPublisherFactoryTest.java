package dev.outboxrelay.publisher.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outboxrelay.core.PublisherFactory;
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
}
