package dev.outboxrelay.relay.polling;

import dev.outboxrelay.core.OutboxDatabaseException;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.RelayState.Phase;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.core.SqlDialect;
import dev.outboxrelay.relay.engine.Lifecycle;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
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
 *
 * <p>{@link #state()}: {@code STARTING} until the first lease rebalance, then {@code ACTIVE} while
 * it owns key buckets, {@code STANDBY} while it owns none (other relays hold them all), {@code
 * FAILED} while its last pass failed (database unreachable: it retries with backoff) or if its
 * worker thread died, {@code STOPPING}/{@code STOPPED} after {@link #close()} or {@link #abort()}.
 * A broker outage leaves it {@code ACTIVE}: the keys it holds back show in {@code retryingKeys}.
 */
public final class PollingRelay implements Relay {
  private static final Logger log = LoggerFactory.getLogger(PollingRelay.class);

  private final PollingRelayConfig config;
  private final String owner;
  // Volatile: state() reads them from any thread without the monitor close() holds for long.
  private volatile Leases leases;
  private volatile RelayWorker worker;
  private volatile BatchPublisher batches;
  private volatile Thread thread;
  private final Lifecycle lifecycle;
  private PgNotifyListener notifyListener;
  private ScheduledExecutorService renewer;
  private ScheduledExecutorService deadLetterer;
  private Optional<DeadLetterRounds> deadLetters = Optional.empty();

  PollingRelay(PollingRelayConfig config) {
    this.config = config;
    this.owner = config.name() + "-" + UUID.randomUUID().toString().substring(0, 8);
    this.lifecycle = new Lifecycle(config.name());
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
  @Override
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
    batches = new BatchPublisher(config, store);
    deadLetters = DeadLetterRounds.of(config, sql.state, leases);
    worker =
        new RelayWorker(
            config,
            leases,
            store,
            batches,
            waker,
            deadLetters,
            lifecycle,
            r -> daemon(r, "-apply"));
    log.info("{} - starting as {} on {} table {}", config.name(), owner, dialect, config.table());
    if (config.listenNotify() && dialect == SqlDialect.POSTGRESQL && pgjdbcPresent()) {
      notifyListener =
          new PgNotifyListener(
              config.dataSource(), config.table().notifyChannel(), waker, config.name());
      daemon(notifyListener, "-notify").start();
    }
    Thread t = daemon(worker, "");
    t.setUncaughtExceptionHandler(
        (th, e) -> {
          lifecycle.tryMoveTo(
              Phase.FAILED, "worker thread not running: " + Secrets.maskText(e.toString()));
          log.error("{} - worker thread died", config.name(), e);
        });
    thread = t;
    lifecycle.moveTo(Phase.STARTING, "taking key-bucket leases");
    t.start();
    // Renewal runs apart from the worker, so a long publish (broker outage) keeps the leases.
    long every = Math.max(100, config.leaseDuration().toMillis() / 3);
    renewer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "-lease"));
    renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
    if (deadLetters.isPresent()) {
      // Its own thread: a copy's send may block up to the publish timeout; the claim loop and the
      // lease renewal must not wait for it. The sweep paces its rounds itself.
      deadLetterer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "-dead-letter"));
      deadLetterer.scheduleWithFixedDelay(deadLetters.get()::run, 500, 500, TimeUnit.MILLISECONDS);
    }
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
    lifecycle.tryMoveTo(Phase.STOPPING, "stopping");
    stopHelpers();
    worker.stop();
    join(config.publishTimeout().plusSeconds(5));
  }

  /**
   * Stops at once without finishing the batch or releasing the leases, as if the process had been
   * killed; other relays take the buckets over when the leases expire. For fault tests.
   */
  @Override
  public synchronized void abort() {
    if (thread == null) {
      return;
    }
    lifecycle.tryMoveTo(Phase.STOPPING, "stopping");
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
    deadLetters.ifPresent(DeadLetterRounds::stop);
    if (deadLetterer != null) {
      deadLetterer.shutdownNow(); // interrupts a copy in flight; it is retried after a restart
    }
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
    if (!thread.isAlive()) {
      lifecycle.tryMoveTo(Phase.STOPPED, "stopped"); // the worker ended, or had died before
    }
  }

  /** What the relay is doing now; see the class comment. Never blocks. */
  @Override
  public RelayState state() {
    Lifecycle.Now now = lifecycle.now();
    Phase phase = now.phase();
    if (phase == Phase.NEW || phase == Phase.STOPPING || phase == Phase.STOPPED) {
      return RelayState.of(phase, now.reason());
    }
    int buckets = leases.usable().size();
    if (phase == Phase.ACTIVE && buckets == 0) {
      return polling(Phase.STANDBY, "owns no key buckets", buckets); // its leases ran out
    }
    return polling(phase, now.reason(), buckets);
  }

  private RelayState polling(Phase phase, String reason, int buckets) {
    return new RelayState(
        phase, reason, OptionalInt.of(buckets), batches.retryingKeys(), OptionalInt.empty());
  }

  /** The key buckets this relay holds leases for right now. */
  public Set<Integer> ownedBuckets() {
    return leases == null ? Set.of() : leases.usable();
  }

  /** The unique owner id this relay writes into lease rows. */
  public String owner() {
    return owner;
  }

  @Override
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
