package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves committed outbox rows to a {@link dev.outboxrelay.core.Publisher}, at least once and in
 * per-key order, by a SQL claim loop. Several relays may serve one table: work is split by key
 * bucket with leases on the database clock, and marks are fenced by the lease. Build with {@link
 * #builder()}; {@link #start()} once, {@link #close()} to stop. Thread-safe.
 */
public final class PollingRelay implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PollingRelay.class);

  private final PollingRelayConfig config;
  private final String owner;
  private Leases leases;
  private RelayWorker worker;
  private PgNotifyListener notifyListener;
  private Thread thread;
  private ScheduledExecutorService renewer;

  PollingRelay(PollingRelayConfig config) {
    this.config = config;
    this.owner = config.name() + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A builder; see its methods for the defaults. */
  public static PollingRelayBuilder builder() {
    return new PollingRelayBuilder();
  }

  /**
   * Starts the worker thread (and the LISTEN thread on PostgreSQL).
   *
   * @throws OutboxDatabaseException if the database cannot be reached to detect its dialect
   * @throws IllegalStateException if already started
   */
  public synchronized PollingRelay start() {
    if (thread != null) {
      throw new IllegalStateException(config.name() + " was already started");
    }
    SqlDialect dialect = dialect();
    if (config.strictOrder() && dialect != SqlDialect.POSTGRESQL) {
      throw new dev.outboxrelay.core.OutboxConfigException(
          "strictOrder", true, "needs PostgreSQL (transaction-id horizon)");
    }
    RelaySql sql = new RelaySql(config.table(), dialect);
    leases = new Leases(config.dataSource(), sql, owner, config.name(), config.leaseDuration());
    RelayStore store =
        new RelayStore(
            config.dataSource(), sql, owner, config.retention().keepsRows(), config.strictOrder());
    Waker waker = new Waker();
    worker = new RelayWorker(config, leases, store, new BatchPublisher(config, store), waker);
    log.info("{} - starting as {} on {} table {}", config.name(), owner, dialect, config.table());
    if (config.listenNotify() && dialect == SqlDialect.POSTGRESQL && pgjdbcPresent()) {
      notifyListener =
          new PgNotifyListener(
              config.dataSource(), config.table().notifyChannel(), waker, config.name());
      daemon(notifyListener, "-notify").start();
    }
    thread = daemon(worker, "");
    thread.start();
    // Renewal runs apart from the worker, so a long publish (broker outage) keeps the leases.
    long every = Math.max(100, config.leaseDuration().toMillis() / 3);
    renewer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "-lease"));
    renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * Stops gracefully: the batch in flight is published and marked (or left unmarked), then the
   * leases are released so other relays take the buckets at once. Waits up to the publish timeout.
   */
  @Override
  public synchronized void close() {
    if (thread == null) {
      return;
    }
    stopHelpers();
    worker.stop();
    join(config.publishTimeout().plusSeconds(5));
  }

  /**
   * Stops at once without finishing the batch or releasing the leases, as if the process had been
   * killed; other relays take the buckets over when the leases expire. For fault tests.
   */
  public synchronized void abort() {
    if (thread == null) {
      return;
    }
    renewer.shutdownNow();
    stopHelpers();
    worker.abort();
    thread.interrupt();
    join(Duration.ofSeconds(5));
  }

  private void renew() {
    try {
      leases.renew();
    } catch (SQLException | RuntimeException e) {
      log.warn("{} - could not renew leases: {}", config.name(), e.toString());
    }
  }

  private void stopHelpers() {
    renewer.shutdown();
    if (notifyListener != null) {
      notifyListener.stop();
    }
  }

  private void join(Duration timeout) {
    try {
      thread.join(timeout.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the worker thread is running. */
  public boolean isRunning() {
    return thread != null && thread.isAlive();
  }

  /** The key buckets this relay holds leases for right now. */
  public Set<Integer> ownedBuckets() {
    return leases == null ? Set.of() : leases.usable();
  }

  /** The unique owner id this relay writes into lease rows. */
  public String owner() {
    return owner;
  }

  public String name() {
    return config.name();
  }

  Duration leaseDuration() {
    return config.leaseDuration();
  }

  private SqlDialect dialect() {
    try (Connection c = config.dataSource().getConnection()) {
      return SqlDialect.of(c);
    } catch (SQLException e) {
      throw new OutboxDatabaseException(config.name() + " could not connect", e);
    }
  }

  private Thread daemon(Runnable r, String suffix) {
    Thread t = new Thread(r, config.name() + suffix);
    t.setDaemon(true);
    return t;
  }

  private static boolean pgjdbcPresent() {
    try {
      Class.forName("org.postgresql.PGConnection");
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
