package dev.outboxrelay.it.correctness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.OutboxTable;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.core.TopicTemplate;
import dev.outboxrelay.dedup.Dedup;
import dev.outboxrelay.servers.DatabaseServer;
import dev.outboxrelay.servers.KafkaServer;
import dev.outboxrelay.servers.RocketMqServer;
import dev.outboxrelay.testing.BrokerReader;
import dev.outboxrelay.testing.KafkaTopicReader;
import dev.outboxrelay.testing.RocketMqTopicReader;
import dev.outboxrelay.testing.history.CheckReport;
import dev.outboxrelay.testing.history.Delivery;
import dev.outboxrelay.testing.history.History;
import dev.outboxrelay.testing.history.HistoryChecker;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * One scenario's world: a fresh database with the outbox, business and effect tables, a fresh
 * topic, relays as processes, dedup consumers, writers, the {@link History}; and the end of every
 * scenario: drain, read the broker and the effects, check, report, assert.
 */
final class CorrectnessRun implements AutoCloseable {
  static final int MESSAGES = Integer.getInteger("correctness.messages", 2000);
  static final String PROFILE = System.getProperty("correctness.profile", "quick");
  static final Path DIR = Path.of(System.getProperty("correctness.dir", "target/correctness"));

  final String scenario;
  final DatabaseServer db;
  final String database;
  final HikariDataSource ds;
  final History history = new History();
  final String topic;
  final Path dir;
  private final String prefix;
  private final KafkaServer kafka;
  private final RocketMqServer rocketMq;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final List<String> faults = new ArrayList<>();
  private final long started = System.nanoTime();
  private Writers writers;
  private boolean consumers;
  private final MarkOutcomes marks = new MarkOutcomes();
  private final HandlerFaults handlerFaults = new HandlerFaults(marks);
  private boolean inJvmConsumers;

  private CorrectnessRun(String scenario, DatabaseServer db, KafkaServer k, RocketMqServer r) {
    this.scenario = scenario;
    this.db = db;
    this.kafka = k;
    this.rocketMq = r;
    this.database = db.createDatabase();
    this.ds = dataSource(db, database);
    this.prefix = "c" + UUID.randomUUID().toString().substring(0, 8) + "-";
    this.topic = prefix + "order";
    this.dir = DIR.resolve(scenario.replaceAll("[^A-Za-z0-9]+", "-"));
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      OutboxSchema.createIfMissing(c, OutboxTable.defaults());
      st.execute("CREATE TABLE business_write (id varchar(36) PRIMARY KEY, k varchar(255))");
      st.execute("CREATE TABLE effect (message_id varchar(36) NOT NULL, k varchar(255))");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    if (k != null) {
      k.createTopic(topic, 3);
    } else {
      r.createTopic(topic, 4);
    }
  }

  /** A pool whose sockets time out, so that no writer waits forever on a database that died. */
  private static HikariDataSource dataSource(DatabaseServer db, String database) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.jdbcUrl(database));
    config.setUsername(db.user());
    config.setPassword(db.password());
    config.setMaximumPoolSize(12);
    config.setConnectionTimeout(5_000);
    config.addDataSourceProperty(
        "socketTimeout", db.dialect() == SqlDialect.POSTGRESQL ? "30" : "30000");
    return new HikariDataSource(config);
  }

  static CorrectnessRun kafka(String scenario, DatabaseServer db, KafkaServer kafka) {
    return new CorrectnessRun(scenario, db, kafka, null);
  }

  static CorrectnessRun rocketMq(String scenario, DatabaseServer db, RocketMqServer rocketMq) {
    return new CorrectnessRun(scenario, db, null, rocketMq);
  }

  RelaySpec polling(String name) {
    return publisherSettings(RelaySpec.polling(name, kafka != null ? "kafka" : "rocketmq"));
  }

  /**
   * A CDC relay; its name (the replication slot, cluster-wide on PostgreSQL) is {@code name} plus
   * this run's id, so runs on one server never share a slot.
   */
  RelaySpec cdc(String name) {
    String unique = name + "_" + prefix.substring(1, prefix.length() - 1);
    return publisherSettings(RelaySpec.cdc(unique, kafka != null ? "kafka" : "rocketmq"));
  }

  private RelaySpec publisherSettings(RelaySpec spec) {
    spec.database(db.jdbcUrl(database), db.user(), db.password())
        .publisher("topic-template", prefix + TopicTemplate.PLACEHOLDER);
    if (kafka != null) {
      spec.publisher("bootstrap.servers", kafka.bootstrapServers());
    } else {
      spec.publisher("namesrvAddr", rocketMq.nameServerAddress())
          .publisher("producerGroup", "relay-" + prefix + spec.name());
    }
    return spec;
  }

  /** Starts a relay process and waits until it is ready. */
  ChildJvm relay(RelaySpec spec) {
    ChildJvm relay = RelayProcess.start(spec, dir);
    closeables.add(relay);
    return relay;
  }

  /** Starts relay processes side by side and waits until all are ready. */
  List<ChildJvm> relays(RelaySpec... specs) {
    List<ChildJvm> started = new ArrayList<>();
    for (RelaySpec spec : specs) {
      ChildJvm relay = RelayProcess.launch(spec, dir);
      closeables.add(relay);
      started.add(relay);
    }
    started.forEach(r -> r.awaitLine(RelayProcess.READY));
    return started;
  }

  /**
   * Starts {@code n} in-JVM dedup consumers of one group (Kafka; the odd ones with {@code
   * concurrency(2)}) or one orderly consumer.
   */
  void consumers(int n) throws Exception {
    consumers = true;
    inJvmConsumers = true;
    Dedup dedup = Consumers.dedup(ds, handlerFaults);
    if (kafka != null) {
      for (int i = 0; i < n; i++) {
        closeables.add(
            // Every other consumer runs its partitions in two lanes: both loops in one group.
            Consumers.kafka(
                dedup, handlerFaults, kafka.bootstrapServers(), topic, "c" + i, 1 + i % 2));
      }
    } else {
      var consumer = Consumers.rocketMq(dedup, handlerFaults, rocketMq.nameServerAddress(), topic);
      closeables.add(consumer::shutdown);
    }
  }

  /** Starts a dedup consumer in its own JVM, for kill -9. */
  ChildJvm consumerProcess() {
    return consumerProcess(0);
  }

  /**
   * Starts a dedup consumer in its own JVM that halts right after its {@code haltAfter}-th database
   * commit (0: never).
   */
  ChildJvm consumerProcess(int haltAfter) {
    consumers = true;
    Consumers.dedup(ds); // creates the dedup tables before any process races to
    ChildJvm c =
        ChildJvm.launch(
            "consumer",
            ChildJvm.onTestClasspath(
                ConsumerMain.class,
                kafka.bootstrapServers(),
                topic,
                db.jdbcUrl(database),
                db.user(),
                db.password(),
                String.valueOf(haltAfter)),
            dir);
    closeables.add(c);
    return c.awaitLine("consumer ready");
  }

  Writers write(Writers.Options options) {
    writers = new Writers(ds, history, options).start();
    closeables.add(writers);
    return writers;
  }

  /** Waits until the writers wrote {@code fraction} of the messages. */
  void awaitProgress(double fraction) {
    await("writers at " + fraction)
        .atMost(Duration.ofMinutes(5))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> writers.written() >= fraction * MESSAGES || writers.done().isDone());
  }

  void awaitWritersDone() throws Exception {
    writers.done().get(10, TimeUnit.MINUTES);
  }

  /**
   * Writes messages of one key, each in its own committed transaction, in order; a payload of
   * {@code sizes[i]} bytes for message {@code i}.
   */
  List<UUID> writeKey(String key, int... sizes) throws SQLException {
    List<UUID> ids = new ArrayList<>();
    Outbox outbox = Outbox.builder().build();
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      for (int size : sizes) {
        OutboxMessage m =
            OutboxMessage.builder()
                .aggregateType("order")
                .aggregateId(key)
                .type("OrderChanged")
                .payload(new byte[size])
                .build();
        try (PreparedStatement ps =
            c.prepareStatement("INSERT INTO business_write (id, k) VALUES (?, ?)")) {
          ps.setString(1, m.id().toString());
          ps.setString(2, key);
          ps.executeUpdate();
        }
        outbox.save(c, m);
        long from = System.nanoTime();
        c.commit();
        history.committed(key, m.id(), from, System.nanoTime());
        ids.add(m.id());
      }
    }
    return ids;
  }

  /** A timed pause of the driver (no sleep: Awaitility's poll delay). */
  static void pause(Duration d) {
    await().pollDelay(d).atMost(d.plusSeconds(5)).until(() -> true);
  }

  void fault(String what) {
    faults.add(what);
  }

  /** Marks the end of the last fault; drain time counts from here. */
  void recovered() {
    history.recovered();
  }

  /**
   * Waits until the writers are done, no outbox row is pending and every committed business row's
   * message has its effect; marks the history drained, timed from the later of the last fault's end
   * and the writers' end.
   */
  void awaitDrained() throws Exception {
    awaitWritersDone();
    // Drain time counts from the end of the last fault or of the writes, whichever is later.
    history.recovered();
    await("drained")
        .atMost(Duration.ofSeconds(Math.max(120, MESSAGES / 50)))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () ->
                count("SELECT COUNT(*) FROM outbox") == 0
                    && (!consumers
                        || count("SELECT COUNT(DISTINCT message_id) FROM effect") + marks.stale()
                            >= count("SELECT COUNT(*) FROM business_write")));
    history.drained();
  }

  /** Settles the history from the database and the broker, checks it, reports it, asserts it. */
  CheckReport check() throws SQLException {
    history.resolveUnknown(ids("SELECT id FROM business_write"));
    try (BrokerReader reader =
        kafka != null
            ? new KafkaTopicReader(kafka.bootstrapServers())
            : new RocketMqTopicReader(rocketMq.nameServerAddress())) {
      history.brokerHolds(reader.readAll(topic).stream().map(Delivery::of).toList());
    }
    if (consumers) {
      history.effectsApplied(effects());
    }
    CheckReport report = HistoryChecker.check(history);
    if (inJvmConsumers) {
      fault(handlerFaults.failures() + " consumer handler failures, batch prefix committed");
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    CorrectnessReport.add(scenario, report, String.join(", ", faults), elapsed);
    System.out.println(
        "[correctness] "
            + scenario
            + ": "
            + report
            + " faults="
            + faults
            + " mark: "
            + marks
            + (inJvmConsumers ? " handler: " + handlerFaults : ""));
    assertThat(report.lost()).as("lost, " + report).isEmpty();
    assertThat(report.phantom()).as("phantom, " + report).isEmpty();
    assertThat(report.orderViolations()).as("order violations, " + report).isEmpty();
    if (consumers) {
      assertThat(report.duplicateEffects()).as("duplicate effects, " + report).isZero();
      assertThat(report.missingEffects()).as("missing effects, " + report).isEmpty();
    }
    assertThat(report.committed()).as("committed").isGreaterThan(MESSAGES / 2);
    return report;
  }

  long count(String sql) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private Set<UUID> ids(String sql) throws SQLException {
    Set<UUID> ids = new HashSet<>();
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        ids.add(UUID.fromString(rs.getString(1)));
      }
    }
    return ids;
  }

  private Map<UUID, Integer> effects() throws SQLException {
    Map<UUID, Integer> counts = new HashMap<>();
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT message_id, COUNT(*) FROM effect GROUP BY message_id")) {
      while (rs.next()) {
        counts.put(UUID.fromString(rs.getString(1)), rs.getInt(2));
      }
    }
    return counts;
  }

  @Override
  public void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      try {
        closeables.get(i).close();
      } catch (Exception e) {
        System.out.println("[correctness] close: " + e);
      }
    }
    dropReplicationSlots();
    ds.close();
  }

  /** Slots are cluster-wide and keep WAL forever: drop this run's once its relays are gone. */
  private void dropReplicationSlots() {
    if (db.dialect() != SqlDialect.POSTGRESQL) {
      return;
    }
    try {
      await("replication slots dropped")
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .until(
              () -> {
                try (Connection c = ds.getConnection();
                    Statement st = c.createStatement()) {
                  st.execute(
                      "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                          + " WHERE database = current_database()");
                }
                return count(
                        "SELECT COUNT(*) FROM pg_replication_slots"
                            + " WHERE database = current_database()")
                    == 0;
              });
    } catch (RuntimeException e) {
      System.out.println("[correctness] replication slots left behind: " + e);
    }
  }
}
