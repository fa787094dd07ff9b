package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.MessageContract;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.PublishResult;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.DedupKafkaConsumerBuilder;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import dev.outboxrelay.publisher.kafka.KafkaPublisher;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Dedup consumer throughput: {@code n} contract messages (1000 keys) are put on a 3-partition topic
 * first; then one {@link DedupKafkaConsumer} consumes them, from its first handled record to its
 * last. The dedup records only (high-water mark off, the default), in the mode's transactions.
 */
final class DedupBench {
  /** How the consumer runs and what its handler does; {@code id} names the figure. */
  enum Mode {
    BATCH("batch", 1, "batch mode, no-op", "no-op handler"),
    BATCH_LANES("batch-c3", 3, "batch mode, concurrency(3), no-op", "no-op handler"),
    RECORD("record", 1, "per-record mode, no-op", "perRecord(true): one transaction per record"),
    BATCH_INSERT(
        "batch-insert",
        1,
        "batch mode, INSERT per message",
        "handler(): one INSERT INTO shipments per message (the demo's)"),
    BATCH_INSERT_LANES(
        "batch-insert-c3",
        3,
        "batch mode, concurrency(3), INSERT per message",
        "handler(): one INSERT INTO shipments per message (the demo's)"),
    BATCH_INSERT_JDBC(
        "batch-insert-jdbc",
        1,
        "batch mode, JDBC batch INSERT",
        "batchHandler(): the batch's shipments in one JDBC batch"),
    RAW_INSERT_LOOP(
        "raw-insert-loop",
        1,
        "anchor: raw JDBC INSERT loop, no Kafka, no dedup",
        "plain JDBC on one connection: the same number of single-row INSERT INTO shipments"
            + " (random UUID ids, as the messages'), one transaction per batch-size rows,"
            + " no Kafka, no dedup; the ceiling of a synchronous insert-per-message handler");

    final String id;
    final int concurrency;
    final String label;
    final String how;

    Mode(String id, int concurrency, String label, String how) {
      this.id = id;
      this.concurrency = concurrency;
      this.label = label;
      this.how = how;
    }

    String how() {
      String lanes =
          concurrency == 1
              ? ""
              : "concurrency(" + concurrency + "): the 3 partitions on their own connections; ";
      return this == RECORD || this == RAW_INSERT_LOOP
          ? how
          : "batch mode, up to " + BATCH_SIZE + " records per transaction; " + lanes + how;
    }

    boolean inserts() {
      return this == BATCH_INSERT
          || this == BATCH_INSERT_LANES
          || this == BATCH_INSERT_JDBC
          || this == RAW_INSERT_LOOP;
    }
  }

  static final int BATCH_SIZE = Integer.getInteger("outbox.bench.dedupBatch", 1000);
  private static final String INSERT = "INSERT INTO shipments (order_id) VALUES (?)";
  private final Kafka kafka;
  private final int payloadBytes;

  DedupBench(Kafka kafka, int payloadBytes) {
    this.kafka = kafka;
    this.payloadBytes = payloadBytes;
  }

  double run(Db db, int n, Mode mode) throws Exception {
    if (mode == Mode.RAW_INSERT_LOOP) {
      return rawInsertLoop(db, n);
    }
    String prefix = kafka.newTopicPrefix("dedup-" + db.kind);
    fill(prefix, n);
    DedupStore store = DedupStore.builder().dataSource(db.ds).build();
    store.createIfMissing();
    if (mode.inserts()) {
      db.execute("CREATE TABLE shipments (order_id VARCHAR(64) PRIMARY KEY)");
    }
    AtomicLong handled = new AtomicLong(); // counted after commit
    Dedup dedup =
        Dedup.builder()
            .store(store)
            .group("bench")
            .listener(
                new DedupListener() {
                  @Override
                  public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
                    handled.incrementAndGet();
                  }
                })
            .build();
    Properties props = new Properties();
    props.put("bootstrap.servers", kafka.bootstrap);
    props.put("group.id", "bench-" + prefix);
    props.put("auto.offset.reset", "earliest");
    props.put("max.poll.records", String.valueOf(BATCH_SIZE)); // at least the batch size
    DedupKafkaConsumerBuilder<byte[], byte[]> b =
        DedupKafkaConsumer.<byte[], byte[]>builder()
            .dedup(dedup)
            .topics(List.of(prefix + "order"))
            .consumerProperties(props)
            .deserializers(new ByteArrayDeserializer(), new ByteArrayDeserializer())
            .batchSize(BATCH_SIZE, Duration.ofSeconds(1))
            .concurrency(mode.concurrency);
    switch (mode) {
      case BATCH, BATCH_LANES -> b.handler((c, r) -> {});
      case RECORD -> b.perRecord(true).handler((c, r) -> {});
      case BATCH_INSERT, BATCH_INSERT_LANES -> b.handler(DedupBench::insertOne);
      case BATCH_INSERT_JDBC -> b.batchHandler(DedupBench::insertAll);
    }
    long t0 = System.nanoTime();
    try (DedupKafkaConsumer<byte[], byte[]> consumer = b.build().start()) {
      long first = 0;
      long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
      while (handled.get() < n) {
        if (first == 0 && handled.get() > 0) {
          first = System.nanoTime();
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("dedup consumer: " + handled.get() + " of " + n);
        }
        Kafka.sleep(2);
      }
      long from = first == 0 ? t0 : first;
      double rate = n / ((System.nanoTime() - from) / 1e9);
      if (mode.inserts()) {
        long rows = db.count("SELECT COUNT(*) FROM shipments");
        if (rows != n) {
          throw new IllegalStateException("dedup consumer: " + rows + " shipments for " + n);
        }
      }
      return rate;
    }
  }

  /**
   * The anchor of {@code batch-insert}: what the database gives a loop of synchronous single-row
   * INSERTs alone, in transactions of the batch size, on one connection, with the statement
   * prepared per row as the handler does (pgjdbc / MariaDB Connector/J cache it). From the first
   * INSERT to the last commit.
   */
  private static double rawInsertLoop(Db db, int n) throws Exception {
    db.execute("CREATE TABLE shipments (order_id VARCHAR(64) PRIMARY KEY)");
    List<String> ids = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ids.add(UUID.randomUUID().toString());
    }
    try (Connection c = db.ds.getConnection()) {
      c.setAutoCommit(false);
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
          ps.setString(1, ids.get(i));
          ps.executeUpdate();
        }
        if ((i + 1) % BATCH_SIZE == 0 || i == n - 1) {
          c.commit();
        }
      }
      double rate = n / ((System.nanoTime() - t0) / 1e9);
      c.setAutoCommit(true);
      long rows = db.count("SELECT COUNT(*) FROM shipments");
      if (rows != n) {
        throw new IllegalStateException("raw insert loop: " + rows + " shipments for " + n);
      }
      return rate;
    }
  }

  /** The demo's shipping handler: one INSERT per message. */
  private static void insertOne(Connection c, ConsumerRecord<byte[], byte[]> r) throws Exception {
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      ps.setString(1, id(r));
      ps.executeUpdate();
    }
  }

  private static void insertAll(Connection c, List<ConsumerRecord<byte[], byte[]>> records)
      throws Exception {
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      for (ConsumerRecord<byte[], byte[]> r : records) {
        ps.setString(1, id(r));
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** The message id: keys repeat (1000 of them), one shipment per message. */
  private static String id(ConsumerRecord<byte[], byte[]> r) {
    return new String(
        r.headers().lastHeader(MessageContract.HEADER_ID).value(), StandardCharsets.UTF_8);
  }

  private void fill(String prefix, int n) throws Exception {
    try (KafkaPublisher publisher = kafka.publisher(prefix)) {
      for (int done = 0; done < n; done += 1000) {
        List<OutboxMessage> batch = new ArrayList<>();
        for (int i = done; i < Math.min(n, done + 1000); i++) {
          batch.add(
              OutboxMessage.builder()
                  .aggregateType("order")
                  .aggregateId("k" + (i % Backlog.KEYS))
                  .type("OrderPlaced")
                  .payload(Backlog.payload(payloadBytes))
                  .sequence(i)
                  .build());
        }
        List<PublishResult> results = publisher.publish(batch).toCompletableFuture().get();
        if (!results.stream().allMatch(PublishResult::isAcknowledged)) {
          throw new IllegalStateException("could not fill the dedup topic");
        }
      }
    }
  }
}
