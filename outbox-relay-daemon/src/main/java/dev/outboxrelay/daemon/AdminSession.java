package dev.outboxrelay.daemon;

import com.zaxxer.hikari.HikariDataSource;
import dev.outboxrelay.daemon.config.DaemonConfig;
import dev.outboxrelay.daemon.config.RelayConfig;
import dev.outboxrelay.relay.engine.OutboxAdmin;

/**
 * A short-lived connection to one relay's table for the operator commands. Opening it checks the
 * relay's tables ({@link SchemaCheck}), so a missing one is reported by name (exit 7) rather than
 * as a raw SQL error halfway through a command.
 */
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
    AdminSession s = new AdminSession(relay, config.relays().indexOf(relay));
    try {
      SchemaCheck.require(s.pool, relay, s.index);
      return s;
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}
