package dev.outboxrelay.benchmarks;

import com.gruelbox.transactionoutbox.Dialect;
import com.gruelbox.transactionoutbox.Instantiator;
import com.gruelbox.transactionoutbox.Persistor;
import com.gruelbox.transactionoutbox.Submitter;
import com.gruelbox.transactionoutbox.ThreadLocalContextTransactionManager;
import com.gruelbox.transactionoutbox.TransactionManager;
import com.gruelbox.transactionoutbox.TransactionOutbox;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.servers.DatabaseServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The gruelbox transaction-outbox peer: the backlog is scheduled through its own API (entries in
 * its TXNO_OUTBOX table, not dispatched), then a second instance with a 16-thread executor flushes
 * it to the same Kafka with the same producer settings: each entry is locked, the send awaited, and
 * the entry deleted, in one transaction per entry (its design).
 */
final class GruelboxPeer {
  static final int THREADS = 16;
  private final Kafka kafka;
  private final int payloadBytes;

  GruelboxPeer(Kafka kafka, int payloadBytes) {
    this.kafka = kafka;
    this.payloadBytes = payloadBytes;
  }

  double drain(DatabaseServer server, String kind, int n) throws Exception {
    try (Db db = new Db(server, kind);
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(
                new HashMap<>(kafka.producerSettings()),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
      String topic = kafka.newTopicPrefix("gruelbox-" + kind) + "order";
      GruelboxSender sender = new GruelboxSender(producer);
      ThreadLocalContextTransactionManager tm = TransactionManager.fromDataSource(db.ds);
      Dialect dialect =
          server.dialect() == SqlDialect.POSTGRESQL ? Dialect.POSTGRESQL_9 : Dialect.MY_SQL_8;
      TransactionOutbox writer =
          outbox(tm, dialect, sender, (entry, process) -> {}, Duration.ofSeconds(1));
      String payload = new String(Backlog.payload(payloadBytes), StandardCharsets.US_ASCII);
      for (int done = 0; done < n; done += 1000) {
        int from = done;
        tm.inTransaction(
            () -> {
              for (int i = from; i < Math.min(n, from + 1000); i++) {
                writer
                    .schedule(GruelboxSender.class)
                    .send(topic, "k" + (i % Backlog.KEYS), UUID.randomUUID().toString(), payload);
              }
            });
      }
      Kafka.sleep(1100); // the scheduled entries become due after the attempt frequency
      ThreadPoolExecutor pool =
          new ThreadPoolExecutor(
              THREADS, THREADS, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<Runnable>());
      try {
        // A 10 s attempt frequency: an entry whose lock failed is retried soon, as it would be by
        // a scheduled flush, instead of after gruelbox's default 2 minutes.
        TransactionOutbox drainer =
            outbox(tm, dialect, sender, Submitter.withExecutor(pool), Duration.ofSeconds(10));
        long t0 = System.nanoTime();
        long deadline = t0 + Duration.ofMinutes(15).toNanos();
        while (kafka.count(topic) < n) {
          // Flush again once the executor has caught up, as a periodic flush would; flushing
          // while thousands wait in the queue only pushes them back again.
          if (pool.getQueue().size() > THREADS || !drainer.flush()) {
            Kafka.sleep(10);
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("gruelbox drain timed out: " + kafka.count(topic));
          }
        }
        return n / ((System.nanoTime() - t0) / 1e9);
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(30, TimeUnit.SECONDS);
      }
    }
  }

  private static TransactionOutbox outbox(
      TransactionManager tm,
      Dialect dialect,
      GruelboxSender sender,
      Submitter submitter,
      Duration attemptFrequency) {
    return TransactionOutbox.builder()
        .transactionManager(tm)
        .persistor(Persistor.forDialect(dialect))
        .instantiator(Instantiator.using(c -> sender))
        .submitter(submitter)
        .attemptFrequency(attemptFrequency)
        .flushBatchSize(1000)
        .build();
  }
}
