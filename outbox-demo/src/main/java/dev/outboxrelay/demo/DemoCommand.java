package dev.outboxrelay.demo;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxConfigException;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.daemon.Daemon;
import dev.outboxrelay.daemon.config.ConfigLoader;
import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.dedup.DedupKafkaConsumer;
import dev.outboxrelay.dedup.DedupListener;
import dev.outboxrelay.dedup.DedupStore;
import dev.outboxrelay.dedup.KafkaDedup;
import dev.outboxrelay.dedup.MessageIdentity;
import dev.outboxrelay.dedup.Outcome;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.MariaDbServer;
import dev.outboxrelay.servers.PostgresServer;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The whole pipeline in one command: a private database and Kafka broker, writers placing orders
 * with their outbox event in the same transaction (about one in ten rolled back), the relay (the
 * same code path as {@code run}), and a deduplicating consumer that ships each order once (batch
 * mode, the default: one transaction per polled batch; counted and timed after its commit). Midway
 * it replays a slice of published messages to show the consumer suppressing the duplicates. Exit
 * code 0 when every committed order was shipped exactly once and no rolled-back order was.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description =
        "Start a private database and Kafka, write orders through the outbox, relay them,"
            + " consume them with dedup, and print live progress and a summary.")
public final class DemoCommand implements Callable<Integer> {
  private static final int REPLAY_SLICE = 100;

  // ./run-demo checks these options itself (RunDemoScriptTest holds its --help to them).
  @Option(
      names = "--orders",
      paramLabel = "N",
      defaultValue = "2000",
      description = "Orders to attempt. Default: ${DEFAULT-VALUE}.")
  int orders;

  @Option(
      names = "--writers",
      paramLabel = "N",
      defaultValue = "4",
      description = "Concurrent writer threads. Default: ${DEFAULT-VALUE}.")
  int writers;

  @Option(
      names = "--rate",
      paramLabel = "N",
      defaultValue = "200",
      description = "Orders per second offered by all writers together. Default: ${DEFAULT-VALUE}.")
  int rate;

  @Option(
      names = "--database",
      paramLabel = "DATABASE",
      defaultValue = "postgres",
      description = "postgres or mariadb. Default: ${DEFAULT-VALUE}.")
  String database;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      defaultValue = "polling",
      description = "Relay mode: polling or cdc. Default: ${DEFAULT-VALUE}.")
  String mode;

  @Spec CommandSpec spec;

  /** Set when a signal stops the JVM: the demo prints nothing more. */
  private volatile boolean stopping;

  private final AtomicLong committed = new AtomicLong();
  private final AtomicLong rolledBack = new AtomicLong();
  private final AtomicLong consumed = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();

  /** Writer commit time of each message in a consumer transaction not yet committed. */
  private final Map<String, Long> committedAt = new ConcurrentHashMap<>();

  /** Commit → consumed, per progress interval; {@link #latencyMicros} accumulates the intervals. */
  private final Recorder interval = new Recorder(60_000_000L, 3);

  private final Histogram latencyMicros = new Histogram(60_000_000L, 3);

  /**
   * The intervals after the first {@value #WARM_UP_INTERVALS}: one JVM runs the writers, the relay
   * and the consumer, all of them cold in the first second, which alone holds the whole run's p99
   * (outbox-demo README, "Latency"). The benchmark's latency part leaves out a 2 s warm-up; this
   * figure is the one to compare with it.
   */
  private final Histogram warmLatencyMicros = new Histogram(60_000_000L, 3);

  private static final int WARM_UP_INTERVALS = 2;

  private int intervals;

  /** When the last message was consumed (or the wait timed out), before the relay stops. */
  private long endNanos;

  @Override
  public Integer call() throws Exception {
    // Checked before any server starts: a refused argument should cost nothing.
    if (!List.of("postgres", "postgresql", "mariadb").contains(database.toLowerCase(Locale.ROOT))) {
      throw new OutboxConfigException(
          "--database",
          database,
          "must be postgres or mariadb (MySQL 8 runs through docker-compose, not the demo)");
    }
    if (!List.of("polling", "cdc").contains(mode.toLowerCase(Locale.ROOT))) {
      throw new OutboxConfigException("--mode", mode, "must be polling or cdc");
    }
    // java.util.logging (the MariaDB binlog client's) goes where the SLF4J configuration says.
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    PrintWriter console = spec.commandLine().getOut();
    PrintWriter out = new PrintWriter(new UntilStopping(console), true);
    // On SIGTERM or SIGINT (Ctrl-C through ./run-demo) the servers' own shutdown hooks stop them
    // under the running demo: the console gets one line for that, the errors that follow go only
    // to the log file (logback-demo.xml), and the JVM exits once the servers have stopped.
    Thread onSignal =
        new Thread(
            () -> {
              System.setErr(new PrintStream(OutputStream.nullOutputStream()));
              spec.commandLine().setErr(new PrintWriter(Writer.nullWriter()));
              synchronized (console) {
                stopping = true;
                console.println("Interrupted: stopping the servers.");
                console.flush();
              }
            },
            "demo-interrupted");
    Runtime.getRuntime().addShutdownHook(onSignal);
    try {
      boolean maria = database.equalsIgnoreCase("mariadb");
      out.printf("Starting a private %s and a Kafka broker...%n", maria ? "MariaDB" : "PostgreSQL");
      out.flush();
      DatabaseServer db = maria ? MariaDbServer.shared() : PostgresServer.shared();
      KafkaServer kafka = KafkaServer.start();
      try {
        return run(db, kafka, out);
      } finally {
        kafka.stop();
        db.stop();
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is stopping: the hook runs (or ran).
      }
    }
  }

  /**
   * Passes text on to the console until the demo is {@link #stopping}, then drops it; checks and
   * writes under the console's lock, which the signal's line takes too.
   */
  private final class UntilStopping extends FilterWriter {
    UntilStopping(Writer console) {
      super(console);
    }

    @Override
    public void write(int c) throws IOException {
      synchronized (lock) {
        if (!stopping) {
          super.write(c);
        }
      }
    }

    @Override
    public void write(char[] chars, int off, int len) throws IOException {
      synchronized (lock) {
        if (!stopping) {
          super.write(chars, off, len);
        }
      }
    }

    @Override
    public void write(String text, int off, int len) throws IOException {
      synchronized (lock) {
        if (!stopping) {
          super.write(text, off, len);
        }
      }
    }
  }

  private int run(DatabaseServer db, KafkaServer kafka, PrintWriter out) throws Exception {
    String name = db.createDatabase();
    kafka.createTopic("outbox.event.order", 3);
    try (HikariDataSource app = db.dataSource(name, writers + 2)) {
      try (Connection c = app.getConnection();
          Statement st = c.createStatement()) {
        OutboxSchema.createIfMissing(c, OutboxTable.defaults());
        st.execute(
            "CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY, customer VARCHAR(64) NOT NULL,"
                + " total INT NOT NULL)");
        st.execute("CREATE TABLE shipments (order_id VARCHAR(64) PRIMARY KEY)");
      }
      DedupStore store = DedupStore.builder().dataSource(app).build();
      store.createIfMissing();

      String yaml =
          String.join(
              "\n",
              "http: {host: 127.0.0.1, port: 0}",
              "relays:",
              "  - name: demo",
              "    mode: " + mode,
              "    database: {url: '"
                  + db.jdbcUrl(name)
                  + "', username: "
                  + db.user()
                  + ", password: "
                  + db.password()
                  + "}",
              "    retention: keep:1h",
              "    batch-size: 500",
              "    publisher:",
              "      type: kafka",
              "      settings: {bootstrap.servers: '" + kafka.bootstrapServers() + "'}");
      out.println("Relay config:");
      out.println(Secrets.maskText(yaml));
      DaemonConfig config = ConfigLoader.parse(yaml, Map.of());
      long started = System.nanoTime();
      try (Daemon daemon = Daemon.start(config);
          DedupKafkaConsumer<String, byte[]> consumer = consumer(store, kafka, app)) {
        out.printf("Relay running; health and metrics on http://%s%n", daemon.httpAddress());
        consumer.start();
        long joinDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (consumer.assignment().isEmpty() && System.nanoTime() < joinDeadline) {
          TimeUnit.MILLISECONDS.sleep(50);
        }
        out.printf("Consumer joined: %s%n", consumer.assignment());
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<java.util.concurrent.Future<?>> writes = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          int writer = w;
          writes.add(pool.submit(() -> write(app, writer)));
        }
        pool.shutdown();
        int replayed = -1;
        while (true) {
          long tick = System.nanoTime();
          boolean writing = !pool.awaitTermination(1, TimeUnit.SECONDS);
          long left = TimeUnit.SECONDS.toNanos(1) - (System.nanoTime() - tick);
          if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
          }
          progress(out, started, daemon.publishedCount());
          // Midway, and once there is a full slice to replay: on a slow machine the first
          // publishes can lag the writers by seconds, and a replay of 1 shows nothing.
          if (replayed < 0
              && committed.get() > orders / 2
              && daemon.publishedCount() >= Math.min(REPLAY_SLICE, orders / 4)) {
            if (mode.equalsIgnoreCase("cdc")) {
              replayed = 0;
              out.println("  (no replay in cdc mode: a CDC relay sees inserts, not updates)");
            } else {
              replayed = replay(app);
              out.printf(
                  "  replayed %d already-published messages: the consumer must drop them%n",
                  replayed);
            }
          }
          if (!writing && consumed.get() >= committed.get() && duplicates.get() >= replayed) {
            break;
          }
          if (System.nanoTime() - started > TimeUnit.MINUTES.toNanos(5)) {
            out.println("Timed out after 5 minutes");
            break;
          }
        }
        for (var f : writes) {
          f.get();
        }
        endNanos = System.nanoTime();
      }
      // After the relay stopped: a CDC relay marks what it published behind its stream (its
      // published log waits for the position it belongs to), and its stop flushes that log, so
      // "pending" here is only what the relay did not publish.
      return summary(out, app, started);
    }
  }

  private void write(HikariDataSource app, int writer) {
    Outbox outbox = Outbox.builder().build();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long intervalNanos = TimeUnit.SECONDS.toNanos(1) * writers / Math.max(1, rate);
    long next = System.nanoTime();
    for (int i = writer; i < orders; i += writers) {
      next += intervalNanos;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(wait);
      }
      String id = "order-" + i;
      try (Connection c = app.getConnection()) {
        c.setAutoCommit(false);
        try (PreparedStatement ps =
            c.prepareStatement("INSERT INTO orders (id, customer, total) VALUES (?, ?, ?)")) {
          ps.setString(1, id);
          ps.setString(2, "customer-" + random.nextInt(50));
          ps.setInt(3, random.nextInt(1, 500));
          ps.executeUpdate();
        }
        outbox.save(
            c,
            OutboxMessage.builder()
                .aggregateType("order")
                .aggregateId(id)
                .type("OrderPlaced")
                .payload(("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8))
                .header("committed-at-micros", String.valueOf(micros()))
                .build());
        if (random.nextInt(10) == 0) {
          c.rollback();
          rolledBack.incrementAndGet();
        } else {
          c.commit();
          committed.incrementAndGet();
        }
      } catch (SQLException e) {
        throw new IllegalStateException("Writer " + writer + " failed: " + e.getMessage(), e);
      }
    }
  }

  private static long micros() {
    return TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis());
  }

  private DedupKafkaConsumer<String, byte[]> consumer(
      DedupStore store, KafkaServer kafka, HikariDataSource app) {
    Properties p = new Properties();
    p.put("bootstrap.servers", kafka.bootstrapServers());
    p.put("group.id", "shipping");
    p.put("auto.offset.reset", "earliest");
    p.put("enable.auto.commit", "false");
    Dedup dedup =
        Dedup.builder()
            .store(store)
            .group("shipping")
            .listener(
                new DedupListener() {
                  @Override
                  public void onOutcome(String group, MessageIdentity message, Outcome outcome) {
                    Long at = committedAt.remove(message.id());
                    if (outcome != Outcome.PROCESSED) {
                      duplicates.incrementAndGet();
                      return;
                    }
                    // After the batch's transaction committed: a rolled-back attempt counts
                    // nothing.
                    consumed.incrementAndGet();
                    if (at != null) {
                      long us = micros() - at;
                      interval.recordValue(Math.max(0, Math.min(us, 59_000_000L)));
                    }
                  }
                })
            .build();
    return DedupKafkaConsumer.<String, byte[]>builder()
        .dedup(dedup)
        .topics(List.of("outbox.event.order"))
        .consumerProperties(p)
        .deserializers(new StringDeserializer(), new ByteArrayDeserializer())
        .pollTimeout(Duration.ofMillis(200))
        .handler(
            (Connection c, ConsumerRecord<String, byte[]> r) -> {
              try (PreparedStatement ps =
                  c.prepareStatement("INSERT INTO shipments (order_id) VALUES (?)")) {
                ps.setString(1, r.key());
                ps.executeUpdate();
              }
              Header at = r.headers().lastHeader("committed-at-micros");
              if (at != null) {
                committedAt.put(
                    KafkaDedup.identity(r).id(),
                    Long.parseLong(new String(at.value(), StandardCharsets.UTF_8)));
              }
            })
        .build();
  }

  private int replay(HikariDataSource app) throws SQLException {
    OutboxAdmin admin = OutboxAdmin.of(app, OutboxTable.defaults());
    List<UUID> ids = new ArrayList<>();
    try (Connection c = app.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT id FROM outbox WHERE published_at IS NOT NULL ORDER BY seq LIMIT "
                    + REPLAY_SLICE)) {
      while (rs.next()) {
        ids.add(UUID.fromString(rs.getString(1)));
      }
    }
    int n = 0;
    for (UUID id : ids) {
      n += admin.replay(id) ? 1 : 0;
    }
    return n;
  }

  private void progress(PrintWriter out, long started, long published) {
    Histogram last = takeInterval();
    out.printf(
        "%5.1fs  written %d (rolled back %d)  published %d  consumed %d  duplicates suppressed %d"
            + "  latency (last second) p50 %.1f ms p99 %.1f ms%n",
        (System.nanoTime() - started) / 1e9,
        committed.get(),
        rolledBack.get(),
        published,
        consumed.get(),
        duplicates.get(),
        last.getValueAtPercentile(50) / 1000.0,
        last.getValueAtPercentile(99) / 1000.0);
    out.flush();
  }

  /**
   * The latencies recorded since the last call, added to the run's and, past the warm-up, to the
   * warm figure.
   */
  private Histogram takeInterval() {
    Histogram last = interval.getIntervalHistogram();
    latencyMicros.add(last);
    if (++intervals > WARM_UP_INTERVALS) {
      warmLatencyMicros.add(last);
    }
    return last;
  }

  private int summary(PrintWriter out, HikariDataSource app, long started) throws SQLException {
    takeInterval();
    long shipped;
    long shippedRolledBack;
    long pending;
    try (Connection c = app.getConnection();
        Statement st = c.createStatement()) {
      shipped = count(st, "SELECT COUNT(*) FROM shipments");
      shippedRolledBack =
          count(
              st,
              "SELECT COUNT(*) FROM shipments s WHERE NOT EXISTS"
                  + " (SELECT 1 FROM orders o WHERE o.id = s.order_id)");
      pending = count(st, "SELECT COUNT(*) FROM outbox WHERE published_at IS NULL");
    }
    boolean ok = shipped == committed.get() && shippedRolledBack == 0;
    out.println();
    out.println("Summary");
    out.printf("  orders committed          %d%n", committed.get());
    out.printf("  orders rolled back        %d (none of them published)%n", rolledBack.get());
    out.printf("  shipments (effects)       %d%n", shipped);
    out.printf("  duplicates suppressed     %d%n", duplicates.get());
    out.printf("  outbox rows pending       %d%n", pending);
    out.printf(
        "  commit -> consumed        p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
        latencyMicros.getValueAtPercentile(50) / 1000.0,
        latencyMicros.getValueAtPercentile(99) / 1000.0,
        latencyMicros.getMaxValue() / 1000.0);
    if (warmLatencyMicros.getTotalCount() > 0) {
      out.printf(
          "  after the first %d s       p50 %.1f ms, p99 %.1f ms, max %.1f ms (warm-up left out, as in"
              + " the benchmark)%n",
          WARM_UP_INTERVALS,
          warmLatencyMicros.getValueAtPercentile(50) / 1000.0,
          warmLatencyMicros.getValueAtPercentile(99) / 1000.0,
          warmLatencyMicros.getMaxValue() / 1000.0);
    }
    out.printf("  elapsed                   %.1f s%n", (endNanos - started) / 1e9);
    out.println(
        ok
            ? "OK: every committed order shipped exactly once, no rolled-back order shipped."
            : "FAILED: shipments do not match committed orders.");
    out.flush();
    return ok ? 0 : 1;
  }

  private static long count(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
