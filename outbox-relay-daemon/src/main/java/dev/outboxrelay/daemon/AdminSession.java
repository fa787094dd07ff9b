package dev.outboxrelay.daemon;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.relay.polling.OutboxAdmin;

/** A short-lived connection to one relay's table for the operator commands. */
final class AdminSession implements AutoCloseable {
  final RelayConfig relay;
  final int index;
  final HikariDataSource pool;
  final OutboxAdmin admin;

  private AdminSession(RelayConfig relay, int index) {
    this.relay = relay;
    this.index = index;
    this.pool = Wiring.pool(relay, index);
    this.admin = OutboxAdmin.of(pool, relay.table());
  }

  static AdminSession open(DaemonConfig config, RelayConfig relay) {
    return new AdminSession(relay, config.relays().indexOf(relay));
  }

  @Override
  public void close() {
    pool.close();
  }
}
