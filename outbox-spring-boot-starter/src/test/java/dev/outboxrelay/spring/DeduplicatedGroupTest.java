package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.annotation.KafkaListener;

/** Which dedup group a {@link Deduplicated} listener records its message ids under. */
class DeduplicatedGroupTest {
  static class Listeners {
    @Deduplicated(group = "explicit")
    @KafkaListener(topics = "t", groupId = "shipping")
    void explicit(ConsumerRecord<String, String> r) {}

    @Deduplicated
    @KafkaListener(topics = "t", groupId = "shipping")
    void fromTheListener(ConsumerRecord<String, String> r) {}

    @Deduplicated
    @KafkaListener(topics = "t", groupId = "${app.group}")
    void placeholder(ConsumerRecord<String, String> r) {}

    @Deduplicated
    @KafkaListener(topics = "t")
    void none(ConsumerRecord<String, String> r) {}
  }

  @Test
  void explicitThenLiteralListenerGroupThenTheDefault() throws Exception {
    assertThat(DeduplicatedInterceptor.group(method("explicit"))).isEqualTo("explicit");
    assertThat(DeduplicatedInterceptor.group(method("fromTheListener"))).isEqualTo("shipping");
    assertThat(DeduplicatedInterceptor.group(method("placeholder"))).isNull();
    assertThat(DeduplicatedInterceptor.group(method("none"))).isNull();
  }

  private static java.lang.reflect.Method method(String name) throws NoSuchMethodException {
    return Listeners.class.getDeclaredMethod(name, ConsumerRecord.class);
  }
}
