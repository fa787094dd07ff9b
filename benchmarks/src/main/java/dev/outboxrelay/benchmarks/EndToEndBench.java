package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.writer.Outbox;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The product as the demo runs it, end to end on one database: writer threads commit an order and
 * its {@code OrderPlaced} message in one transaction; one polling relay (NOTIFY on PostgreSQL)
 * publishes to a 3-partition topic; one {@link DedupKafkaConsumer} in batch mode inserts one
 * shipment per message in the same database, in the dedup transaction.
 *
 * <p>Two measurements on fresh tables: the sustained rate, with the writers as fast as they go for
 * the duration and the rate counted from the first commit to the last shipment; and commit → effect
 * at a fixed offered rate from one writer, the effect time taken when the dedup transaction that
 * inserted the shipment committed. Both check that every committed order got exactly one shipment
 * and no handler ran twice.
 */
final class EndToEndBench {
  /** Writer threads in the throughput run. */
  static final int WRITERS = 4;

  record Result(double rate, double p50, double p99, double max, long count) {}

  private static final String SHIPMENT = "INSERT INTO shipments (order_id) VALUES (?)";
  private final Kafka kafka;
  private final int payloadBytes;

  EndToEndBench(Kafka kafka, int payloadBytes) {
    this.kafka = kafka;
    this.payloadBytes = payloadBytes;
  }

  /** Sustained messages/s: writers flat out for {@code duration}, until every effect applied. */
  Result throughput(Db db, Duration duration) throws Exception {
    return run(db, duration, 0);
  }

  /** Commit → effect at {@code ratePerSecond} for {@code duration}, one writer. */
  Result latency(Db db, int ratePerSecond, Duration duration) throws Exception {
    return run(db, duration, ratePerSecond);
  }

  private Result run(Db db, Duration duration, int rate) throws Exception {
    boolean pg = db.server.dialect() == SqlDialect.POSTGRESQL;
    db.execute(
        "CREATE TABLE orders (id "
            + (pg ? "uuid" : "char(36)")
            + " PRIMARY KEY, customer varchar(64) NOT NULL, body text NOT NULL)");
    db.execute("CREATE TABLE shipments (order_id varchar(64) PRIMARY KEY)");
    DedupStore store = DedupStore.builder().dataSource(db.ds).build();
    store.createIfMissing();
    Map<String, Long> committed = new ConcurrentHashMap<>();
    Histogram histogram = new Histogram(3_600_000_000_000L, 3);
    AtomicLong applied = new AtomicLong();
    AtomicLong duplicates = new AtomicLong();
    AtomicLong lastEffect = new AtomicLong();
    Dedup dedup =
        Dedup.builder()
            .store(store)
            .group("e2e")
            .listener(
                new DedupListener() {
                  @Override
                  public void onOutcome(String group, MessageIdentity m, Outcome outcome) {
                    // After the dedup transaction committed.
                    long now = System.nanoTime();
                    if (outcome != Outcome.PROCESSED) {
                      duplicates.incrementAndGet();
                      return;
                    }
                    Long t = committed.get(m.id());
                    if (t != null) {
                      synchronized (histogram) {
                        histogram.recordValue(Math.max(0, now - t));
                      }
                    }
                    applied.incrementAndGet();
                    lastEffect.set(now);
                  }
                })
            .build();
    String prefix = kafka.newTopicPrefix("e2e-" + db.kind);
    Properties props = new Properties();
    props.put("bootstrap.servers", kafka.bootstrap);
    props.put("group.id", "e2e-" + prefix);
    props.put("auto.offset.reset", "earliest");
    props.put("max.poll.records", String.valueOf(DedupBench.BATCH_SIZE));
    DedupKafkaConsumer<byte[], byte[]> consumer =
        DedupKafkaConsumer.<byte[], byte[]>builder()
            .dedup(dedup)
            .topics(List.of(prefix + "order"))
            .consumerProperties(props)
            .deserializers(new ByteArrayDeserializer(), new ByteArrayDeserializer())
            .handler(EndToEndBench::ship)
            .build()
            .start();
    KafkaPublisher publisher = kafka.publisher(prefix);
    PollingRelay relay =
        PollingRelay.builder()
            .name("e2e-" + db.name)
            .dataSource(db.ds)
            .publisher(publisher)
            .build()
            .start();
    try {
      long[] span =
          rate == 0 ? flatOut(db, committed, duration) : paced(db, committed, rate, duration);
      long n = committed.size();
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (applied.get() < n) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "end to end: "
                  + applied.get()
                  + " of "
                  + n
                  + " effects after 5 min; pending rows "
                  + db.pending());
        }
        Kafka.sleep(2);
      }
      long shipments = db.count("SELECT COUNT(*) FROM shipments");
      if (shipments != n || applied.get() != n) {
        throw new IllegalStateException(
            "end to end: "
                + n
                + " orders, "
                + shipments
                + " shipments, "
                + applied.get()
                + " handler runs");
      }
      double seconds = (lastEffect.get() - span[0]) / 1e9;
      synchronized (histogram) {
        return new Result(
            n / seconds,
            histogram.getValueAtPercentile(50) / 1e6,
            histogram.getValueAtPercentile(99) / 1e6,
            histogram.getMaxValue() / 1e6,
            n);
      }
    } finally {
      relay.close();
      publisher.close();
      consumer.close();
    }
  }

  /** {@link #WRITERS} threads as fast as they commit; returns {first commit start, end}. */
  private long[] flatOut(Db db, Map<String, Long> committed, Duration duration) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<?>> writers = new ArrayList<>();
    long start = System.nanoTime();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      writers.add(
          pool.submit(
              () -> {
                long i = 0;
                try (Connection c = db.ds.getConnection()) {
                  c.setAutoCommit(false);
                  while (!stop.get()) {
                    order(db, c, committed, "w" + writer + "-" + (i++ % (Backlog.KEYS / WRITERS)));
                  }
                }
                return null;
              }));
    }
    Thread.sleep(duration.toMillis());
    stop.set(true);
    for (Future<?> f : writers) {
      f.get();
    }
    pool.shutdown();
    return new long[] {start, System.nanoTime()};
  }

  /** One writer at the offered rate, the schedule kept (not drifting). */
  private long[] paced(Db db, Map<String, Long> committed, int rate, Duration duration)
      throws Exception {
    long period = 1_000_000_000L / rate;
    long n = duration.toNanos() / period;
    long start = System.nanoTime();
    try (Connection c = db.ds.getConnection()) {
      c.setAutoCommit(false);
      for (long i = 0; i < n; i++) {
        long wait = start + i * period - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        order(db, c, committed, "k" + (i % Backlog.KEYS));
      }
    }
    return new long[] {start, System.nanoTime()};
  }

  /** The business transaction: the order and its message, committed together. */
  private void order(Db db, Connection c, Map<String, Long> committed, String key)
      throws Exception {
    UUID id = UUID.randomUUID();
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO orders (id, customer, body) VALUES (?, ?, ?)")) {
      if (db.server.dialect() == SqlDialect.POSTGRESQL) {
        ps.setObject(1, id);
      } else {
        ps.setString(1, id.toString());
      }
      ps.setString(2, key);
      ps.setString(3, "order");
      ps.executeUpdate();
    }
    OutboxMessage m =
        OutboxMessage.builder()
            .aggregateType("order")
            .aggregateId(key)
            .type("OrderPlaced")
            .payload(Backlog.payload(payloadBytes))
            .build();
    OUTBOX.save(c, m);
    c.commit();
    committed.put(m.id().toString(), System.nanoTime());
  }

  private static final Outbox OUTBOX = Outbox.builder().build();

  /** The demo's shipping handler: one INSERT per message, in the dedup transaction. */
  private static void ship(Connection c, ConsumerRecord<byte[], byte[]> r) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(SHIPMENT)) {
      ps.setString(
          1,
          new String(
              r.headers().lastHeader(MessageContract.HEADER_ID).value(), StandardCharsets.UTF_8));
      ps.executeUpdate();
    }
  }
}
