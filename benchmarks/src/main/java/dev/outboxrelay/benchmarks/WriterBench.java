package dev.outboxrelay.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.OutboxMessage;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.spring.SpringOutbox;
import dev.outboxrelay.writer.Outbox;
import dev.outboxrelay.writer.OutboxBuffer;
import dev.outboxrelay.writer.OutboxBuilder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writer overhead: the same business transaction (insert one order row, commit) with and without
 * {@code outbox.save} of a message in it, {@link #THREADS} writer threads each on its own
 * connection, no relay running.
 */
final class WriterBench {
  /** Writer threads per run: a few, and as many as a busy application's pool. */
  static final List<Integer> THREADS = List.of(4, 32);

  private final int payloadBytes;

  /**
   * {@code -Doutbox.bench.writerIds=random}: the messages get version-4 (random) ids instead of the
   * builder's time-ordered default, to measure what the id order costs (A/B in the same build).
   */
  private final boolean randomIds =
      "random".equals(System.getProperty("outbox.bench.writerIds", ""));

  WriterBench(int payloadBytes) {
    this.payloadBytes = payloadBytes;
  }

  /** Business transactions per second. */
  double run(Db db, int threads, Row row, Duration duration) throws Exception {
    return run(db, threads, new Variant(row, randomIds, true, 0), duration);
  }

  /** What the business transaction writes beside its order row. */
  enum Row {
    /** Nothing: the business transaction alone. */
    NONE,
    /** {@code outbox.save} of the message. */
    SAVE,
    /**
     * The anchor: the same row into the same outbox table by a hand-written {@code INSERT} of the
     * columns the writer sets (no key order, no headers), what an application writing its outbox
     * row itself would run.
     */
    HAND_WRITTEN,
    /**
     * The floor of any outbox table: an id and the payload into a table with only a primary key.
     */
    MINIMAL,
    /** {@link OutboxBuffer}: saved after the order row, flushed right before the commit. */
    BUFFER,
    /**
     * The Spring path: a {@code TransactionTemplate} over a {@code DataSourceTransactionManager},
     * the order row, {@code SpringOutbox.save} (written at the commit).
     */
    SPRING_SAVE,
    /** The Spring path's anchor: the same Spring transaction with {@link #HAND_WRITTEN}'s row. */
    SPRING_HAND;

    boolean spring() {
      return this == SPRING_SAVE || this == SPRING_HAND;
    }
  }

  /**
   * A variant of the transaction, for diagnostics ({@link WriterAb}): the row beside the order,
   * version-4 ids, the writer's key order, extra {@code SELECT 1} round trips after the business
   * insert.
   */
  record Variant(
      Row row, boolean randomIds, boolean keyOrder, int extraRoundTrips, boolean wakeUp) {
    Variant(Row row, boolean randomIds, boolean keyOrder, int extraRoundTrips) {
      this(row, randomIds, keyOrder, extraRoundTrips, true);
    }
  }

  /** Business transactions per second of a variant. */
  double run(Db db, int threads, Variant v, Duration duration) throws Exception {
    Row row = v.row();
    boolean randomIds = v.randomIds();
    boolean pg = db.server.dialect() == SqlDialect.POSTGRESQL;
    String uuid = pg ? "uuid" : "char(36)";
    db.execute(
        "CREATE TABLE IF NOT EXISTS orders (id "
            + uuid
            + " PRIMARY KEY, customer varchar(64) NOT NULL, amount decimal(12,2) NOT NULL,"
            + " body text NOT NULL)");
    db.execute(
        "CREATE TABLE IF NOT EXISTS outbox_minimal (id "
            + uuid
            + " PRIMARY KEY, payload "
            + (pg ? "bytea" : "longblob")
            + " NOT NULL)");
    String rowSql =
        switch (row) {
          case HAND_WRITTEN, SPRING_HAND ->
              "INSERT INTO outbox (id, aggregatetype, aggregateid, type, payload)"
                  + " VALUES (?, ?, ?, ?, ?)";
          case MINIMAL -> "INSERT INTO outbox_minimal (id, payload) VALUES (?, ?)";
          default -> null; // NONE, SAVE, BUFFER, SPRING_SAVE: no statement of the bench's own
        };
    Outbox outbox =
        Outbox.builder()
            .keyOrder(v.keyOrder())
            .wakeUpInterval(v.wakeUp() ? OutboxBuilder.DEFAULT_WAKE_UP_INTERVAL : Duration.ZERO)
            .build();
    String body =
        new String(Backlog.payload(payloadBytes), java.nio.charset.StandardCharsets.US_ASCII);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong count = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> workers = new ArrayList<>();
    HikariDataSource ds = db.server.dataSource(db.name, threads);
    long t0 = System.nanoTime();
    SpringOutbox springOutbox = SpringOutbox.of(outbox, ds);
    TransactionTemplate spring = new TransactionTemplate(new DataSourceTransactionManager(ds));
    Transaction tx =
        (c, rs) -> {
          UUID id = UUID.randomUUID();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "INSERT INTO orders (id, customer, amount, body) VALUES (?, ?, ?, ?)")) {
            ps.setObject(1, pg ? id : id.toString());
            ps.setString(2, "customer-" + (count.get() % 1000));
            ps.setBigDecimal(3, java.math.BigDecimal.valueOf(4200, 2));
            ps.setString(4, body);
            ps.executeUpdate();
          }
          for (int i = 0; i < v.extraRoundTrips(); i++) {
            try (java.sql.Statement st = c.createStatement()) {
              st.executeQuery("SELECT 1").close();
            }
          }
          if (row == Row.NONE) {
            return;
          }
          OutboxMessage m = Backlog.message(id.toString(), payloadBytes);
          if (randomIds) {
            m = m.toBuilder().id(UUID.randomUUID()).build();
          }
          switch (row) {
            case SAVE -> outbox.save(c, m);
            case BUFFER -> {
              OutboxBuffer buffer = outbox.buffer();
              buffer.save(m);
              buffer.flush(c);
            }
            case SPRING_SAVE -> springOutbox.save(m);
            default -> handWritten(rs, row, m, pg);
          }
        };
    for (int w = 0; w < threads; w++) {
      workers.add(
          pool.submit(
              () -> {
                if (row.spring()) {
                  while (!stop.get()) {
                    spring.executeWithoutResult(s -> inSpring(ds, rowSql, tx));
                    count.incrementAndGet();
                  }
                  return null;
                }
                try (Connection c = ds.getConnection();
                    PreparedStatement rs = rowSql == null ? null : c.prepareStatement(rowSql)) {
                  c.setAutoCommit(false);
                  while (!stop.get()) {
                    tx.run(c, rs);
                    c.commit();
                    count.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    Thread.sleep(duration.toMillis());
    stop.set(true);
    for (Future<?> f : workers) {
      f.get();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    pool.shutdown();
    ds.close();
    return count.get() / seconds;
  }

  /** The business transaction on a connection, with the bench's own row statement if any. */
  private interface Transaction {
    void run(Connection c, PreparedStatement row) throws java.sql.SQLException;
  }

  /** One transaction's body on the Spring transaction's connection. */
  private static void inSpring(javax.sql.DataSource ds, String rowSql, Transaction tx) {
    Connection c = DataSourceUtils.getConnection(ds);
    try (PreparedStatement rs = rowSql == null ? null : c.prepareStatement(rowSql)) {
      tx.run(c, rs);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    } finally {
      DataSourceUtils.releaseConnection(c, ds);
    }
  }

  private static void handWritten(PreparedStatement rs, Row row, OutboxMessage m, boolean pg)
      throws java.sql.SQLException {
    if (pg) {
      rs.setObject(1, m.id());
    } else {
      rs.setString(1, m.id().toString());
    }
    if (row == Row.MINIMAL) {
      rs.setBytes(2, m.payload());
    } else {
      rs.setString(2, m.aggregateType());
      rs.setString(3, m.aggregateId());
      rs.setString(4, m.type());
      rs.setBytes(5, m.payload());
    }
    rs.executeUpdate();
  }
}
