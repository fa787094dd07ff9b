package dev.outboxrelay.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class MessageIdsTest {
  @Test
  void isAVersion7UuidOfTheRfc9562VariantCarryingTheTime() {
    long before = System.currentTimeMillis();
    UUID id = MessageIds.next();
    long after = System.currentTimeMillis();
    assertThat(id.version()).isEqualTo(7);
    assertThat(id.variant()).isEqualTo(2);
    long millis = id.getMostSignificantBits() >>> 16;
    // The counter may carry into the millisecond after 4096 ids in one: a few ms ahead at most
    // here.
    assertThat(millis).isBetween(before, after + 5);
  }

  @Test
  void theDefaultIdOfAMessageIsTimeOrdered() {
    OutboxMessageBuilder b =
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId("42")
            .type("Placed")
            .payload("{}");
    UUID first = b.build().id();
    UUID second =
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId("42")
            .type("Placed")
            .payload("{}")
            .build()
            .id();
    assertThat(first.version()).isEqualTo(7);
    assertThat(second.toString()).isGreaterThan(first.toString());
  }

  @Test
  void idsStrictlyIncreaseAsStringsAndAsUnsignedNumbersInOneThread() {
    UUID previous = MessageIds.next();
    for (int i = 0; i < 100_000; i++) {
      UUID next = MessageIds.next();
      assertThat(next.toString()).isGreaterThan(previous.toString());
      assertThat(unsignedCompare(next, previous)).isPositive();
      previous = next;
    }
  }

  @Test
  void threadsNeverGetTheSameId() throws Exception {
    Set<UUID> seen = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> counts = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        counts.add(
            pool.submit(
                () -> {
                  int added = 0;
                  for (int i = 0; i < 20_000; i++) {
                    added += seen.add(MessageIds.next()) ? 1 : 0;
                  }
                  return added;
                }));
      }
      for (Future<Integer> f : counts) {
        assertThat(f.get()).isEqualTo(20_000);
      }
    } finally {
      pool.shutdown();
    }
    assertThat(seen).hasSize(160_000);
  }

  private static int unsignedCompare(UUID a, UUID b) {
    int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
    return high != 0
        ? high
        : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
  }
}
