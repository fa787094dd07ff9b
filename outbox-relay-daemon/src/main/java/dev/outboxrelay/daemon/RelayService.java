package dev.outboxrelay.daemon;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.BrokerCheck;
import dev.outboxrelay.core.BrokerCheck.Probe;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.core.Relay;
import dev.outboxrelay.core.RelayState;
import dev.outboxrelay.core.Secrets;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import dev.outboxrelay.micrometer.ReconcileMeters;
import dev.outboxrelay.micrometer.RelayMeters;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.cdc.CdcRelayBuilder;
import dev.outboxrelay.relay.engine.OutboxAdmin;
import dev.outboxrelay.relay.engine.Retention;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.writer.OutboxSchema;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One configured relay with its pool, publisher and meters; started and stopped by the daemon. */
final class RelayService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RelayService.class);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  private final RelayConfig config;
  private final HikariDataSource pool;
  private final Publisher publisher;
  private final RelayMeters metrics;
  private final OutboxAdmin admin;
  private final BrokerCheck check; // null: the publisher offers no broker reader
  private final RelayHealth health;
  private final DrainProgress progress;
  private final CdcRole cdcRole; // null for a polling relay
  private ReconcileLoop reconcile; // null unless reconcile.enabled
  private Relay relay;

  private RelayService(
      RelayConfig config,
      HikariDataSource pool,
      Publisher publisher,
      RelayMeters metrics,
      BrokerCheck check) {
    this.config = config;
    this.pool = pool;
    this.publisher = publisher;
    this.metrics = metrics;
    this.check = check;
    this.admin = OutboxAdmin.of(pool, config.table());
    this.health = new RelayHealth(config.publishTimeout(), config.backoffMax(), System::nanoTime);
    this.progress = new DrainProgress(config.name(), System::nanoTime);
    this.cdcRole = config.mode() == Mode.CDC ? new CdcRole(pool, config.name()) : null;
  }

  /**
   * Builds the pool, publisher and relay of one config entry (nothing runs yet), after checking
   * what can be checked: the database (waited for until {@code deadlineNanos}), the tables, the
   * relay's settings (building it: a config error exits 2 before the broker is waited for), the
   * broker (waited for too, through the probe of the publisher's broker reader, if it offers one).
   * Whatever was opened is closed if a step fails.
   */
  static RelayService create(
      RelayConfig config, int index, MeterRegistry registry, long deadlineNanos, Duration budget) {
    HikariDataSource pool = DatabaseConnect.open(config, index, deadlineNanos, budget);
    BrokerCheck check = null;
    Publisher publisher = null;
    try {
      if (config.createSchema()) {
        try (Connection c = pool.getConnection()) {
          OutboxSchema.createIfMissing(c, config.table());
        } catch (SQLException e) {
          throw new ConfigError(
              "relays[" + index + "].create-schema failed: " + e.getMessage(), null);
        }
      }
      SchemaCheck.require(pool, config, index);
      publisher = Wiring.publisher(config, index);
      check =
          config.reconcile().enabled()
              ? Wiring.brokerCheck(config, index, "reconcile.enabled")
              : Wiring.offeredBrokerCheck(config, index).orElse(null);
      RelayMeters metrics =
          new RelayMeters(config.name(), config.mode().name().toLowerCase(Locale.ROOT));
      metrics.bindTo(registry);
      RelayService service = new RelayService(config, pool, publisher, metrics, check);
      service.build();
      if (config.reconcile().enabled()) {
        ReconcileMeters meters =
            new ReconcileMeters(config.name(), config.mode().name().toLowerCase(Locale.ROOT));
        meters.bindTo(registry);
        service.reconcile =
            new ReconcileLoop(
                config, check, service.admin, publisher, meters, java.time.Clock.systemUTC());
      }
      if (check != null) {
        BrokerWait.await(check, config, index, deadlineNanos, budget);
      }
      return service;
    } catch (RuntimeException e) {
      closeAll(check, publisher, pool);
      throw e;
    }
  }

  private static void closeAll(BrokerCheck check, Publisher publisher, HikariDataSource pool) {
    try {
      if (check != null) {
        check.close();
      }
    } finally {
      try {
        if (publisher != null) {
          publisher.close();
        }
      } finally {
        pool.close();
      }
    }
  }

  private void build() {
    Retention retention =
        config.keepPublishedFor().map(Retention::keepFor).orElse(Retention.deleteImmediately());
    if (config.mode() == Mode.POLLING) {
      relay =
          PollingRelay.builder()
              .name(config.name())
              .dataSource(pool)
              .publisher(publisher)
              .table(config.table())
              .batchSize(config.batchSize())
              .inFlightBatches(config.inFlightBatches())
              .pollInterval(config.pollInterval())
              .leaseDuration(config.leaseDuration())
              .publishTimeout(config.publishTimeout())
              .backoffInitial(config.backoffInitial())
              .backoffMax(config.backoffMax())
              .retention(retention)
              .strictOrder(config.strictOrder())
              .listenNotify(config.listenNotify())
              .deadLetterTopic(config.publisher().deadLetterTopic().orElse(null))
              .listener(new BothListeners(metrics, health))
              .build();
    } else {
      CdcRelayBuilder b =
          CdcRelay.builder()
              .name(config.name())
              .source(
                  config.database().url(),
                  config.database().username(),
                  config.database().password())
              .dataSource(pool)
              .publisher(publisher)
              .table(config.table())
              .batchSize(config.batchSize())
              .pollInterval(config.pollInterval())
              .publishTimeout(config.publishTimeout())
              .backoff(config.backoffInitial(), config.backoffMax())
              .debeziumProperties(config.debezium())
              .deadLetterTopic(config.publisher().deadLetterTopic().orElse(null))
              .listener(new BothListeners(metrics, health));
      b.retention(retention);
      relay = b.build();
    }
  }

  void start() {
    relay.start();
    if (reconcile != null) {
      reconcile.start();
    }
    if (cdcRole != null) {
      cdcRole.sample();
    }
    log.info(
        "Relay {} started: {} on {} table {}, publisher {}",
        config.name(),
        config.mode().name().toLowerCase(),
        Secrets.maskUrl(config.database().url()),
        config.table().name(),
        config.publisher().type());
  }

  /**
   * Ready when the relay runs, its tables can be read, its broker answered within {@code
   * publish-timeout}, and it is active or on standby: a polling relay owning buckets or none
   * ({@code "role":"standby"}), a CDC relay streaming or behind the one that streams (see {@link
   * ReadinessCheck}).
   */
  Readiness readiness() {
    List<String> problems = new ArrayList<>(health.problems());
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("mode", config.mode().name().toLowerCase());
    RelayState state = relay.state();
    if (cdcRole != null) {
      cdcRole.describe(state, fields);
    } else {
      state.ownedBuckets().ifPresent(b -> fields.put("buckets", b));
      if (state.phase() == RelayState.Phase.STANDBY) {
        fields.put("role", "standby"); // ready with 0 buckets: the detail says why it idles
      }
    }
    ReadinessCheck.addProblems(state, cdcRole != null, problems);
    return new Readiness(problems.isEmpty(), fields, problems);
  }

  RelayConfig config() {
    return config;
  }

  /**
   * Refreshes the table-derived gauges (backlog, oldest pending age, parked keys), the database and
   * broker health, the CDC role, then the phase and readiness gauges from all of that, and logs
   * drain progress. On the sampler thread only.
   */
  void sample() {
    try {
      long backlog = admin.pendingCount();
      Duration oldest = admin.oldestPendingAge().orElse(Duration.ZERO);
      int parked = admin.parked().size();
      metrics.sampled(backlog, oldest, parked);
      health.databaseSampled(Optional.empty());
      progress.sampled(backlog, metrics.publishedCount(), oldest, parked).ifPresent(log::info);
    } catch (RuntimeException e) {
      health.databaseSampled(Optional.of(Wiring.rootMessage(e)));
      log.debug("Relay {}: sampling the table failed: {}", config.name(), e.toString());
    }
    if (health.needsProbe()) {
      health.probed(probeBroker());
    }
    if (cdcRole != null && relay.state().phase() != RelayState.Phase.NEW) {
      cdcRole.sample();
    }
    metrics.sampledState(relay.state().phase(), readiness().up());
  }

  /**
   * Why the broker does not answer, or empty when it does or cannot be asked (a publisher without a
   * reader, or a reader without a probe, is judged by its publish outcomes only).
   */
  private Optional<String> probeBroker() {
    Probe probe = check == null ? Probe.notAsked() : BrokerWait.ask(check, PROBE_TIMEOUT);
    return switch (probe.outcome()) {
      case ANSWERED, NOT_ASKED -> Optional.empty();
      case NO_ANSWER -> Optional.of(probe.reason());
      case REFUSED -> Optional.of("authentication failed: " + probe.reason());
    };
  }

  /** Graceful stop: the batch in flight finishes or is released, leases are released. */
  @Override
  public void close() {
    if (reconcile != null) {
      reconcile.close(); // before the publisher it republishes through and the check it asks
    }
    if (check != null) {
      check.close();
    }
    try {
      if (relay != null) {
        relay.close();
      }
    } finally {
      try {
        publisher.close();
      } finally {
        pool.close();
      }
    }
    log.info("Relay {} stopped", config.name());
  }
}
