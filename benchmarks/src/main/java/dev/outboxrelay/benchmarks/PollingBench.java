package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.RelayListener;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.relay.polling.PollingRelayBuilder;
import dev.outboxrelay.servers.DatabaseServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Polling relay drains: relays start on an empty table with a closed gate, take their share of the
 * key buckets, the backlog is written, then the gate opens and the clock runs until every message
 * is acknowledged (on the Kafka topic, or by the no-op publisher for the raw claim rate).
 */
final class PollingBench {
  private final Kafka kafka;
  private final int payloadBytes;

  PollingBench(Kafka kafka, int payloadBytes) {
    this.kafka = kafka;
    this.payloadBytes = payloadBytes;
  }

  /** msg/s for one drain of {@code n} rows; {@code toKafka=false} measures the SQL loop alone. */
  double drain(DatabaseServer server, String kind, int n, int batch, int instances, boolean toKafka)
      throws Exception {
    return drain(server, kind, n, batch, instances, 0, toKafka);
  }

  /**
   * As above, with {@code inFlight} batches awaiting acknowledgements at once per relay (0: the
   * relay's default).
   */
  double drain(
      DatabaseServer server,
      String kind,
      int n,
      int batch,
      int instances,
      int inFlight,
      boolean toKafka)
      throws Exception {
    try (Db db = new Db(server, kind)) {
      String prefix = toKafka ? kafka.newTopicPrefix("poll-" + kind) : null;
      GatedPublisher gate = new GatedPublisher(toKafka ? kafka.publisher(prefix) : null);
      AtomicLong published = new AtomicLong();
      List<PollingRelay> relays = new ArrayList<>();
      try {
        for (int i = 0; i < instances; i++) {
          PollingRelayBuilder b = relay(db, "bench-" + i, gate, batch, counter(published));
          if (inFlight > 0) {
            b.inFlightBatches(inFlight);
          }
          relays.add(b.build().start());
        }
        awaitBalanced(relays);
        Backlog.fill(db.ds, n, payloadBytes, 1000);
        long t0 = System.nanoTime();
        gate.open();
        long done =
            toKafka
                ? kafka.awaitCount(prefix + "order", n, Duration.ofMinutes(10))[1]
                : awaitPublished(published, n, Duration.ofMinutes(10));
        return n / ((done - t0) / 1e9);
      } finally {
        relays.forEach(PollingRelay::close);
        gate.close();
      }
    }
  }

  static PollingRelayBuilder relay(
      Db db, String name, GatedPublisher publisher, int batch, RelayListener listener) {
    return PollingRelay.builder()
        .name(name)
        .dataSource(db.ds)
        .publisher(publisher)
        .batchSize(batch)
        .leaseDuration(Duration.ofSeconds(3))
        .publishTimeout(Duration.ofMinutes(5))
        .listener(listener);
  }

  static RelayListener counter(AtomicLong published) {
    return new RelayListener() {
      @Override
      public void onPublished(List<OutboxMessage> messages, Duration publishLatency) {
        published.addAndGet(messages.size());
      }
    };
  }

  static void awaitBalanced(List<PollingRelay> relays) throws TimeoutException {
    int share = (256 + relays.size() - 1) / relays.size();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      int total = relays.stream().mapToInt(r -> r.ownedBuckets().size()).sum();
      boolean fair = relays.stream().allMatch(r -> r.ownedBuckets().size() <= share);
      if (total == 256 && fair) {
        return;
      }
      Kafka.sleep(50);
    }
    throw new TimeoutException("relays did not share the 256 buckets within 60 s");
  }

  static long awaitPublished(AtomicLong published, long n, Duration timeout)
      throws TimeoutException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (published.get() < n) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(published.get() + " of " + n + " published");
      }
      Thread.onSpinWait();
      Kafka.sleep(1);
    }
    return System.nanoTime();
  }
}
