package dev.outboxrelay.publisher.rocketmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;

class KeyHashSelectorTest {
  private static final List<MessageQueue> QUEUES =
      IntStream.range(0, 4).mapToObj(i -> new MessageQueue("t", "broker-a", i)).toList();

  @Test
  void aKeyAlwaysGetsTheSameQueue() {
    MessageQueue first = KeyHashSelector.INSTANCE.select(QUEUES, null, "order-17");
    for (int i = 0; i < 10; i++) {
      assertThat(KeyHashSelector.INSTANCE.select(List.copyOf(QUEUES), null, "order-17"))
          .isEqualTo(first);
    }
    // Fixed by String.hashCode, so the same in every JVM and relay instance.
    assertThat(KeyHashSelector.index("order-17", 4))
        .isEqualTo(KeyHashSelector.index("order-17", 4));
  }

  @Test
  void keysSpreadOverAllQueues() {
    Set<Integer> used =
        IntStream.range(0, 100)
            .mapToObj(i -> KeyHashSelector.index("key-" + i, QUEUES.size()))
            .collect(Collectors.toSet());
    assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 3);
  }
}
