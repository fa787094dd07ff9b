package dev.outboxrelay.benchmarks;

import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.cdc.CdcSettings;
import dev.outboxrelay.servers.DatabaseServer;
import java.time.Duration;

/**
 * CDC drains of a backlog that piled up while the relay was down: the relay (ours, or Debezium's
 * Event Router as a peer) starts once and relays one row so its position is stored, stops, the
 * backlog is written, and it starts again. The rate runs from the first backlog message on the
 * topic to the last (engine start-up excluded; it is reported apart). The live measure ({@link
 * #oursLive}, {@link #debeziumLive}) writes the same rows while the engine streams, in transactions
 * of {@link #LIVE_ROWS_PER_TX}, {@link #LIVE_WRITERS} writers as fast as they commit.
 */
final class CdcBench {
  interface Engine extends AutoCloseable {
    @Override
    void close();
  }

  interface EngineStarter {
    Engine start(Db db, String prefix, String name);
  }

  /** Rows per writer transaction in the live measure: many commits, as an application makes. */
  static final int LIVE_ROWS_PER_TX = 100;

  /**
   * Writer threads in the live measure ({@code -Doutbox.bench.liveWriters}, default 4, each on its
   * own connection and keys). Four, because both engines keep up with one writer, which makes the
   * figure the writer's rate; four outrun them on PostgreSQL, so the figure is the engine's.
   */
  static final int LIVE_WRITERS = Integer.getInteger("outbox.bench.liveWriters", 4);

  private final Kafka kafka;
  private final int payloadBytes;
  long lastStartupMillis;

  /** The last live run: the writer's own rate (rows/s), and the last message's delay after it. */
  double lastWriteRate;

  long lastTailMillis;

  /**
   * The last live run's CPU time per message, in µs, from the first write to the last message: this
   * JVM's (the engine, the writer, the topic's count), the database server's, and the database
   * server's through the engine's close.
   */
  double lastJvmCpuMicros;

  double lastDbCpuMicros;
  double lastDbCpuWithCloseMicros;

  /**
   * The last drain's rate from the engine's start to the last message: start-up, and reading the
   * stream before the first message, included.
   */
  double lastFromStart;

  CdcBench(Kafka kafka, int payloadBytes) {
    this.kafka = kafka;
    this.payloadBytes = payloadBytes;
  }

  double ours(DatabaseServer server, String kind, int n) throws Exception {
    return drain(server, kind, n, "cdc", this::startOurs);
  }

  double debezium(DatabaseServer server, String kind, int n) throws Exception {
    return drain(
        server, kind, n, "dbz", (db, prefix, name) -> new EventRouterPeer(kafka, db, prefix, name));
  }

  /**
   * Rows written while the engine streams: the rate from the first write to the last message on the
   * topic; the writer's rate and the tail (last message after the last commit) are kept.
   */
  double oursLive(DatabaseServer server, String kind, int n) throws Exception {
    return live(server, kind, n, "cdclive", this::startOurs);
  }

  double debeziumLive(DatabaseServer server, String kind, int n) throws Exception {
    return live(
        server,
        kind,
        n,
        "dbzlive",
        (db, prefix, name) -> new EventRouterPeer(kafka, db, prefix, name));
  }

  private double live(DatabaseServer server, String kind, int n, String what, EngineStarter s)
      throws Exception {
    try (Db db = new Db(server, kind)) {
      String prefix = kafka.newTopicPrefix(what + "-" + kind);
      String topic = prefix + "order";
      String name = what + "_" + db.name;
      double rate;
      long dbCpu0;
      try (Engine engine = s.start(db, prefix, name)) {
        awaitStreaming(db, topic);
        long base = kafka.count(topic);
        long jvmCpu0 = CpuTime.jvmNanos();
        dbCpu0 = CpuTime.databaseNanos(server.dialect());
        long t0 = System.nanoTime();
        long writeMillis = Backlog.fill(db.ds, n, payloadBytes, LIVE_ROWS_PER_TX, LIVE_WRITERS);
        long[] t = kafka.awaitCount(topic, base, base + n, Duration.ofMinutes(15));
        lastJvmCpuMicros = (CpuTime.jvmNanos() - jvmCpu0) / 1e3 / n;
        lastDbCpuMicros = (CpuTime.databaseNanos(server.dialect()) - dbCpu0) / 1e3 / n;
        lastWriteRate = n / (writeMillis / 1e3);
        lastTailMillis = Math.max(0, (t[1] - t0) / 1_000_000 - writeMillis);
        rate = n / ((t[1] - t0) / 1e9);
      } finally {
        dropSlots(server, db);
      }
      // Through the engine's close: ours retains (deletes) the published rows by then, which a
      // busy stream puts off; Debezium + Event Router leaves the rows to the application.
      lastDbCpuWithCloseMicros = (CpuTime.databaseNanos(server.dialect()) - dbCpu0) / 1e3 / n;
      return rate;
    }
  }

  private static void dropSlots(DatabaseServer server, Db db) throws Exception {
    if (server.dialect() == dev.outboxrelay.core.SqlDialect.POSTGRESQL) {
      Kafka.sleep(200);
      db.execute(
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
              + " WHERE database = current_database() AND NOT active");
    }
  }

  private Engine startOurs(Db db, String prefix, String name) {
    Publisher publisher = kafka.publisher(prefix);
    CdcRelay relay =
        CdcRelay.builder()
            .name(name)
            .source(db.url(), db.server.user(), db.server.password())
            .dataSource(db.ds)
            .publisher(publisher)
            .batchSize(
                Integer.getInteger("outbox.bench.cdcBatch", CdcSettings.BATCH_SIZE.defaultValue()))
            .pollInterval(
                Duration.ofMillis(
                    Long.getLong(
                        "outbox.bench.cdcPollMs",
                        CdcSettings.POLL_INTERVAL.defaultValue().toMillis())))
            .build()
            .start();
    return () -> {
      relay.close();
      publisher.close();
    };
  }

  /**
   * Writes a row every 500 ms until one is relayed: a CDC engine misses rows committed before it
   * streams (Debezium with {@code snapshot.mode=no_data}), so this is how we know it streams.
   */
  private void awaitStreaming(Db db, String topic) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (kafka.count(topic) == 0) {
      if (System.nanoTime() > deadline) {
        throw new java.util.concurrent.TimeoutException("CDC engine not streaming after 2 min");
      }
      Backlog.fill(db.ds, 1, payloadBytes, 1);
      Kafka.sleep(500);
    }
    Kafka.sleep(500); // let the position of that row be stored
  }

  private double drain(DatabaseServer server, String kind, int n, String what, EngineStarter s)
      throws Exception {
    try (Db db = new Db(server, kind)) {
      String prefix = kafka.newTopicPrefix(what + "-" + kind);
      String topic = prefix + "order";
      String name = what + "_" + db.name;
      try (Engine first = s.start(db, prefix, name)) {
        awaitStreaming(db, topic);
      }
      long base = kafka.count(topic);
      Backlog.fill(db.ds, n, payloadBytes, 1000);
      long t0 = System.nanoTime();
      try (Engine second = s.start(db, prefix, name)) {
        long[] t = kafka.awaitCount(topic, base, base + n, Duration.ofMinutes(15));
        lastStartupMillis = (t[0] - t0) / 1_000_000;
        lastFromStart = n / ((t[1] - t0) / 1e9);
        return n / ((t[1] - t[0]) / 1e9);
      } finally {
        dropSlots(server, db);
      }
    }
  }
}
