package dev.outboxrelay.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outboxrelay.core.OutboxException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Which methods {@link Deduplicated} applies to: one record, or a batch of records. */
class DeduplicatedAdvisorTest {
  static class Listeners {
    @Deduplicated
    void one(ConsumerRecord<String, String> r) {}

    @Deduplicated
    void batch(String topic, List<ConsumerRecord<String, String>> records) {}

    @Deduplicated
    void values(List<String> values) {}

    void plain(List<ConsumerRecord<String, String>> records) {}
  }

  private final DeduplicatedAdvisor advisor = new DeduplicatedAdvisor(null);

  @Test
  void aRecordOrAListOfRecordsIsAdvised() {
    assertThat(matches("one")).isTrue();
    assertThat(matches("batch")).isTrue();
    assertThat(matches("plain")).isFalse();
    assertThat(DeduplicatedInterceptor.batchParameter(method("batch"))).isEqualTo(1);
    assertThat(DeduplicatedInterceptor.batchParameter(method("one"))).isEqualTo(-1);
  }

  @Test
  void aListOfAnythingElseFailsTheStart() {
    assertThatThrownBy(() -> matches("values"))
        .isInstanceOf(OutboxException.class)
        .hasMessage(
            "@Deduplicated Listeners.values needs a ConsumerRecord or List<ConsumerRecord>"
                + " parameter (the message id is the record's 'id' header)");
  }

  private boolean matches(String name) {
    return advisor.getPointcut().getMethodMatcher().matches(method(name), Listeners.class);
  }

  private static Method method(String name) {
    return Arrays.stream(Listeners.class.getDeclaredMethods())
        .filter(m -> m.getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
