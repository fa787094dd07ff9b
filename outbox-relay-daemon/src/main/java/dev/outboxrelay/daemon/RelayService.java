package dev.outboxrelay.daemon;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.core.Publisher;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.daemon.config.RelayConfig.Mode;
import dev.outboxrelay.relay.cdc.CdcRelay;
import dev.outboxrelay.relay.cdc.CdcRelayBuilder;
import dev.outboxrelay.relay.polling.OutboxAdmin;
import dev.outboxrelay.relay.polling.PollingRelay;
import dev.outboxrelay.relay.polling.Retention;
import dev.outboxrelay.writer.OutboxSchema;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One configured relay with its pool, publisher and meters; started and stopped by the daemon. */
final class RelayService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RelayService.class);

  private final RelayConfig config;
  private final HikariDataSource pool;
  private final Publisher publisher;
  private final RelayMetrics metrics;
  private final OutboxAdmin admin;
  private PollingRelay polling;
  private CdcRelay cdc;
  private volatile boolean started;

  private RelayService(
      RelayConfig config, HikariDataSource pool, Publisher publisher, RelayMetrics metrics) {
    this.config = config;
    this.pool = pool;
    this.publisher = publisher;
    this.metrics = metrics;
    this.admin = OutboxAdmin.of(pool, config.table());
  }

  /** Builds the pool, publisher and relay of one config entry (nothing runs yet). */
  static RelayService create(RelayConfig config, int index, MeterRegistry registry) {
    HikariDataSource pool = Wiring.pool(config, index);
    try {
      if (config.createSchema()) {
        try (Connection c = pool.getConnection()) {
          OutboxSchema.createIfMissing(c, config.table());
        } catch (SQLException e) {
          throw new ConfigError(
              "relays[" + index + "].create-schema failed: " + e.getMessage(), null);
        }
      }
      Publisher publisher = Wiring.publisher(config, index);
      RelayMetrics metrics =
          new RelayMetrics(registry, config.name(), config.mode().name().toLowerCase());
      RelayService service = new RelayService(config, pool, publisher, metrics);
      service.build();
      return service;
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  private void build() {
    Retention retention =
        config.keepPublishedFor().map(Retention::keepFor).orElse(Retention.deleteImmediately());
    if (config.mode() == Mode.POLLING) {
      polling =
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
              .listener(metrics)
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
              .listener(metrics);
      config.keepPublishedFor().ifPresent(b::keepPublishedFor);
      cdc = b.build();
    }
  }

  void start() {
    if (polling != null) {
      polling.start();
    } else {
      cdc.start();
    }
    started = true;
    log.info(
        "Relay {} started: {} on {} table {}, publisher {}",
        config.name(),
        config.mode().name().toLowerCase(),
        config.database().url(),
        config.table().name(),
        config.publisher().type());
  }

  /** Started and not stopped (a CDC relay on standby behind another instance counts as ready). */
  boolean isReady() {
    return started && (polling == null || polling.isRunning());
  }

  RelayConfig config() {
    return config;
  }

  /** Refreshes the table-derived gauges: backlog, oldest pending age, parked keys. */
  void sample() {
    try {
      metrics.backlog.set(admin.pendingCount());
      metrics.oldestPendingMillis.set(admin.oldestPendingAge().map(Duration::toMillis).orElse(0L));
      metrics.parkedKeys.set(admin.parked().size());
    } catch (RuntimeException e) {
      log.debug("Relay {}: sampling the table failed: {}", config.name(), e.toString());
    }
  }

  /** Graceful stop: the batch in flight finishes or is released, leases are released. */
  @Override
  public void close() {
    started = false;
    try {
      if (polling != null) {
        polling.close();
      } else if (cdc != null) {
        cdc.close();
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
