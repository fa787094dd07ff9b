package dev.outboxrelay.daemon;

import dev.outboxrelay.core.RelayState;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A CDC relay's {@code role} for readiness, from the relay's own {@link RelayState} ({@code
 * streaming}, {@code standby}, {@code starting}, {@code failed}, {@code stopped}), and its {@code
 * owner}: the database session that holds the source lock (see {@link CdcOwner}), so readiness
 * shows which instance streams. The owner is sampled on the sampler thread (a database query); read
 * by the health handler.
 */
final class CdcRole {
  private final DataSource pool;
  private final String relay;
  private volatile String owner;

  CdcRole(DataSource pool, String relay) {
    this.pool = pool;
    this.relay = relay;
  }

  void sample() {
    try {
      Optional<String> holder = CdcOwner.find(pool, relay);
      owner = holder.orElse(null);
    } catch (SQLException | RuntimeException e) {
      owner = null; // the sampler reports the database as a problem of its own
    }
  }

  /** Adds {@code role} and, when known, {@code owner} to the readiness fields. */
  void describe(RelayState state, Map<String, Object> fields) {
    fields.put("role", role(state));
    String o = owner;
    if (o != null) {
      fields.put("owner", o);
    }
  }

  static String role(RelayState state) {
    return switch (state.phase()) {
      case ACTIVE -> "streaming";
      case STANDBY -> "standby";
      case STARTING -> "starting";
      case FAILED -> "failed";
      case NEW, STOPPING, STOPPED -> "stopped";
    };
  }
}
