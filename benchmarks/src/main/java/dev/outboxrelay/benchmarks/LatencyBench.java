package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.writer.Outbox;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Commit → broker acknowledgement at a fixed offered rate, one message per transaction. The commit
 * time is taken when {@code commit()} returns; the ack time when the Kafka publisher's stage for
 * the message's batch completes (every message of the batch acknowledged by the broker), seen
 * through a decorating {@link Publisher}.
 */
final class LatencyBench {
  enum Mode {
    POLLING_NOTIFY,
    POLLING_POLL,
    CDC
  }

  /** p50, p99, max in ms. */
  record Result(double p50, double p99, double max, long count) {}

  private final Kafka kafka;
  private final int payloadBytes;
  final int lingerMs;

  LatencyBench(Kafka kafka, int payloadBytes, int lingerMs) {
    this.kafka = kafka;
    this.payloadBytes = payloadBytes;
    this.lingerMs = lingerMs;
  }

  Result run(Db db, Mode mode, int ratePerSecond, Duration duration) throws Exception {
    Map<UUID, Long> committed = new ConcurrentHashMap<>();
    Histogram histogram = new Histogram(3_600_000_000_000L, 3);
    AtomicLong measuring = new AtomicLong(Long.MAX_VALUE);
    AtomicLong early = new AtomicLong(); // acknowledged before the writer recorded its commit
    // The ack time: when the publisher's stage for the batch completes, i.e. when the broker
    // acknowledged every message of it (before the relay marks them).
    java.util.function.Consumer<List<PublishResult>> acked =
        results -> {
          long now = System.nanoTime();
          for (PublishResult r : results) {
            if (!r.isAcknowledged()) {
              continue;
            }
            Long t = committed.remove(r.message().id());
            if (t == null) {
              early.incrementAndGet();
            } else if (t >= measuring.get()) {
              synchronized (histogram) {
                histogram.recordValue(now - t);
              }
            }
          }
        };
    String prefix = kafka.newTopicPrefix("lat-" + db.kind);
    Publisher kafkaPublisher =
        kafka.publisher(prefix, Map.of("linger.ms", String.valueOf(lingerMs)));
    Publisher publisher =
        new Publisher() {
          @Override
          public java.util.concurrent.CompletionStage<List<PublishResult>> publish(
              List<OutboxMessage> batch) {
            return kafkaPublisher
                .publish(batch)
                .thenApply(
                    results -> {
                      acked.accept(results);
                      return results;
                    });
          }

          @Override
          public void sendBuffered() {
            kafkaPublisher.sendBuffered();
          }

          @Override
          public void close() {
            kafkaPublisher.close();
          }
        };
    AutoCloseable relay = start(db, mode, publisher);
    try {
      long warm = write(db, committed, ratePerSecond, Duration.ofSeconds(2), null);
      // Start measuring once the relay streams: a CDC relay catches up its first rows from the
      // table, whichever path they take they must all be on the topic before we go on.
      kafka.awaitCount(prefix + "order", warm, Duration.ofMinutes(2));
      committed.clear();
      early.set(0);
      long measured = write(db, committed, ratePerSecond, duration, measuring);
      try {
        kafka.awaitCount(prefix + "order", warm + measured, Duration.ofMinutes(2));
      } catch (java.util.concurrent.TimeoutException e) {
        throw new IllegalStateException(
            e.getMessage() + "; rows still in the outbox table: " + db.pending(), e);
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (committed.size() > early.get() && System.nanoTime() < deadline) {
        Kafka.sleep(20);
      }
      if (committed.size() > early.get()) {
        throw new IllegalStateException(committed.size() + " messages not acknowledged in 30 s");
      }
    } finally {
      relay.close();
      publisher.close();
    }
    synchronized (histogram) {
      return new Result(
          histogram.getValueAtPercentile(50) / 1e6,
          histogram.getValueAtPercentile(99) / 1e6,
          histogram.getMaxValue() / 1e6,
          histogram.getTotalCount());
    }
  }

  private AutoCloseable start(Db db, Mode mode, Publisher publisher) {
    if (mode == Mode.CDC) {
      CdcRelay relay =
          CdcRelay.builder()
              .name("lat_" + db.name)
              .source(db.url(), db.server.user(), db.server.password())
              .dataSource(db.ds)
              .publisher(publisher)
              .build()
              .start();
      return relay::close;
    }
    PollingRelay relay =
        PollingRelay.builder()
            .name("lat-" + db.name)
            .dataSource(db.ds)
            .publisher(publisher)
            .listenNotify(mode == Mode.POLLING_NOTIFY)
            .build()
            .start();
    return relay::close;
  }

  /** Commits one message per transaction at the offered rate (schedule kept, not drifting). */
  private long write(
      Db db, Map<UUID, Long> committed, int rate, Duration duration, AtomicLong measuring)
      throws Exception {
    Outbox outbox = Outbox.builder().build();
    long period = 1_000_000_000L / rate;
    long n = duration.toNanos() / period;
    try (Connection c = db.ds.getConnection()) {
      c.setAutoCommit(false);
      long start = System.nanoTime();
      if (measuring != null) {
        measuring.set(start);
      }
      for (long i = 0; i < n; i++) {
        long due = start + i * period;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        OutboxMessage m = Backlog.message("k" + (i % Backlog.KEYS), payloadBytes);
        outbox.save(c, m);
        c.commit();
        committed.put(m.id(), System.nanoTime());
      }
    }
    return n;
  }
}
